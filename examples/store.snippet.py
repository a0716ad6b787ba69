    def remove(self, name):
        if name not in self.items:
            raise KeyError(f"{name!r} is not in the cart")
        del self.items[name]
