import argparse

from pricing.rules import apply_discount


def main() -> None:
    parser = argparse.ArgumentParser(prog="lumen-reprice")
    parser.add_argument("price_cents", type=int)
    parser.add_argument("--percent", type=int, default=0)
    args = parser.parse_args()
    print(apply_discount(args.price_cents, args.percent))
