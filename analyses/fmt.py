"""Numbers for people (DESIGN principle 10): the words and digits pages and tables print.

Percentages read "54% [53–55%]", odds "1 in 393", points "12.3 [12.1–12.5]". An interval is printed
only when it is wider than the digits shown (a 95% interval that rounds to the estimate at both ends
says nothing the estimate does not). No function here returns scientific notation, ``nan`` or ``inf``:
a value that does not apply comes back as ``None`` from the ``maybe_*`` helpers, so the caller leaves
it out and says why in words. CSV files keep the raw values; nothing here is used for data.
"""

from __future__ import annotations

import math
import re

#: What a page must never contain: scientific notation (2.8e-05), nan or inf as a word. A number in
#: scientific notation starts a word, so a commit's hash that holds one ("c6f47e1") is not one.
FORBIDDEN = re.compile(r"(?<![0-9A-Za-z.])\d+(?:\.\d+)?[eE][+-]?\d|\bnan\b|\binf\b|\bNaN\b|\bNone\b")


def missing(x) -> bool:
    """True for None, NaN and infinities."""
    return x is None or (isinstance(x, float) and not math.isfinite(x))


def _decimals_for_percent(value: float) -> int:
    """Decimals of a percentage: none from 10%, one from 1%, else enough for two significant digits."""
    v = abs(value)
    if v >= 10 or v == 0:
        return 0
    if v >= 1:
        return 1
    return min(4, 1 - math.floor(math.log10(v)))


def pct(p: float, lo: float | None = None, hi: float | None = None, decimals: int | None = None) -> str:
    """A share as "54% [53–55%]" (the interval only where it shows at the printed digits)."""
    if missing(p):
        return "—"
    d = _decimals_for_percent(100 * p) if decimals is None else decimals
    est = f"{100 * p:.{d}f}"
    if lo is None or hi is None or missing(lo) or missing(hi):
        return f"{est}%"
    a, b = f"{100 * lo:.{d}f}", f"{100 * hi:.{d}f}"
    if a == est == b:
        return f"{est}%"
    return f"{est}% [{a}–{b}%]"


def pp(d: float, lo: float | None = None, hi: float | None = None) -> str:
    """A difference of two shares in percentage points, signed: "+1.9 pp [+1.7 to +2.1]"."""
    return signed(100 * d, None if lo is None else 100 * lo, None if hi is None else 100 * hi, " pp")


def _n_for_one_in(n: float) -> str:
    return f"{n:,.0f}" if n >= 100 else f"{n:.3g}"


def one_in(p: float) -> str:
    """A probability as "1 in 393" (whole numbers from 100 up, three significant digits below);
    "never" for 0."""
    if missing(p):
        return "—"
    if p <= 0:
        return "never"
    return "1 in " + _n_for_one_in(1.0 / p)


def one_in_interval(p: float, lo: float, hi: float) -> str:
    """ "1 in 391 [383–398]": the odds with the range the 95% interval allows (omitted where it rounds
    away); "never seen [rarer than 1 in N]" when ``p`` is 0."""
    if missing(p):
        return "—"
    if p <= 0:
        return f"never seen (rarer than {one_in(hi)})" if not missing(hi) and hi > 0 else "never seen"
    n = 1.0 / p
    if missing(lo) or missing(hi) or lo <= 0 or hi <= 0:
        return f"1 in {_n_for_one_in(n)}"
    d = 0 if n >= 100 else max(0, 2 - math.floor(math.log10(n)))  # three significant digits
    est = f"{n:,.{d}f}"
    a, b = (f"{x:,.{d}f}" for x in (1.0 / hi, 1.0 / lo))
    return f"1 in {est}" if a == est == b else f"1 in {est} [{a}–{b}]"


def number(x: float, digits: int = 3) -> str:
    """A plain number: thousands separated from 1,000, else ``digits`` significant digits, never in
    scientific notation."""
    if missing(x):
        return "—"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if x == 0:
        return "0"
    d = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{d}f}"


def _decimals_for(x: float, digits: int = 3) -> int:
    if missing(x) or x == 0:
        return 0
    return max(0, digits - 1 - math.floor(math.log10(abs(x))))


def value(x: float, lo: float | None = None, hi: float | None = None, unit: str = "", digits: int = 3) -> str:
    """ "12.3 points [12.1–12.5]": a mean with its interval (only where it shows at the printed digits)."""
    if missing(x):
        return "—"
    d = _decimals_for(x, digits) if abs(x) < 1000 else 0
    est = f"{x:,.{d}f}"
    tail = f" {unit}" if unit else ""
    if lo is None or hi is None or missing(lo) or missing(hi):
        return est + tail
    a, b = f"{lo:,.{d}f}", f"{hi:,.{d}f}"
    if a == est == b:
        return est + tail
    return f"{est}{tail} [{a}–{b}]"


#: The most decimals :func:`decimals_apart` adds to tell a value from its threshold.
MOST_DECIMALS = 4


def decimals_apart(x: float, threshold: float, decimals: int) -> int:
    """Decimals at which ``|x|`` and ``threshold`` print differently: ``decimals`` where they already do
    (or are equal), else the fewest more (at most :data:`MOST_DECIMALS`). A value printed beside the
    threshold it is judged against must not read as the threshold itself when it falls on one side of
    it: 0.0099 against 0.01 is "0.99", not "1.0"."""
    if missing(x) or missing(threshold) or abs(x) == threshold:
        return decimals
    d = decimals
    while d < MOST_DECIMALS and f"{abs(x):.{d}f}" == f"{threshold:.{d}f}":
        d += 1
    return d


def signed(
    x: float,
    lo: float | None = None,
    hi: float | None = None,
    unit: str = "",
    digits: int = 1,
    threshold: float | None = None,
) -> str:
    """A signed difference "+1.9 pp [+1.7 to +2.1]", digits chosen so the interval shows and, with a
    ``threshold`` of size (same units, positive), so the value never prints as the threshold it is
    judged against (:func:`decimals_apart`)."""
    if missing(x):
        return "—"
    half = (hi - lo) / 2 if lo is not None and hi is not None and not missing(lo) and not missing(hi) else 0
    ref = half if half > 0 else abs(x)
    d = 0 if ref == 0 else min(4, max(0, digits - 1 - math.floor(math.log10(ref))))
    if abs(x) < 10 and half >= 1:
        d = max(d, 1)  # "+0.3 [−1.7 to +2.2]", not "+0 [−2 to +2]"
    if abs(x) >= 100:
        d = 0
    if threshold is not None:
        d = decimals_apart(x, threshold, d)
    est = f"{x:+,.{d}f}".replace("-", "−")
    if lo is None or hi is None or missing(lo) or missing(hi):
        return est + unit
    a, b = f"{lo:+,.{d}f}".replace("-", "−"), f"{hi:+,.{d}f}".replace("-", "−")
    if a == est == b:
        return est + unit
    return f"{est}{unit} [{a} to {b}]"


def line(a: float, b: float, x: str = "your meld") -> str:
    """A fitted line "26.0 + 0.80 × your meld": the intercept to three significant digits (whole numbers
    from 1,000), the slope to two decimals, as the cards print a rule of thumb."""
    return f"{number(a, 3)} + {b:.2f} × {x}"


def same_line(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """True when the lines ``(a, b)`` print alike (:func:`line`): a reader cannot tell them apart, so
    the text says "the same line" rather than print one twice."""
    return line(*first) == line(*second)


def markdown_table(rows: list[dict], columns: list[str] | None = None) -> str:
    """Rows of ready-made strings as a Markdown table (columns in order of the first row)."""
    if not rows:
        return ""
    columns = columns or list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(lines)


def clean(text: str) -> list[str]:
    """The forbidden fragments (scientific notation, nan, inf) found in ``text``."""
    return FORBIDDEN.findall(text)
