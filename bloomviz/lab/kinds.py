"""The kinds of finding the lab names, in the order a report names them: a module of their own, so that the
grid (which finds them) and the report (which words them) both read them and neither imports the other for it."""

FALSE_NEGATIVES = "false negatives"
BROKEN = "broken contract"
COINCIDE = "positions that coincide"
BIASED = "biased position"
FILL = "fill outside what luck explains"
RATE = "rate outside what luck explains"
KINDS = (BROKEN, FALSE_NEGATIVES, COINCIDE, BIASED, FILL, RATE)
