# ... existing code ...
    def remove(self, name):
        if name not in self.items:
            raise KeyError(f"no item named {name!r}")
        del self.items[name]

    def total_value(self):
        return sum(item.price * item.quantity for item in self.items.values())

    def names(self):
# ... existing code ...
