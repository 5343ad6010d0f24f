from decimal import ROUND_HALF_EVEN, Decimal

# Prices are integer cents everywhere; Decimal only inside a calculation.
MAX_DISCOUNT_PERCENT = 40


def apply_discount(price_cents: int, percent: int) -> int:
    if not 0 <= percent <= MAX_DISCOUNT_PERCENT:
        raise ValueError(f"discount {percent}% is outside 0..{MAX_DISCOUNT_PERCENT}")
    factor = (Decimal(100) - Decimal(percent)) / Decimal(100)
    return int((Decimal(price_cents) * factor).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
