"""A small Java class the merge tests share: two methods, each ending in a `return` of a local."""

SHOP = """\
public class Shop {
    public int alpha(int x) {
        int price = loadPrice(x);
        return price;
    }

    public int gamma(int x) {
        int label = formatLabel(x);
        return label;
    }
}"""
