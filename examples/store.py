"""A tiny store: an inventory of items and a customer's cart."""

from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    quantity: int = 0


class Inventory:
    """What the shop has in stock."""

    def __init__(self):
        self.items = {}

    def add(self, item):
        self.items[item.name] = item

    def remove(self, name):
        del self.items[name]

    def total_value(self):
        return sum(item.price * item.quantity for item in self.items.values())


class Cart:
    """What a customer is about to buy."""

    def __init__(self):
        self.items = {}

    def add(self, item):
        self.items[item.name] = item

    def remove(self, name):
        del self.items[name]

    def total(self):
        return sum(item.price * item.quantity for item in self.items.values())
