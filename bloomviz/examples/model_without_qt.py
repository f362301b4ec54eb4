"""The window's model on its own (no Qt): insert a few names, look up others, and print what each lookup
found — the same records, verdicts and culprits the window shows, from a script or a notebook."""

from bloomviz.workbench.model import Workbench


def main(m: int = 32, k: int = 3) -> list[str]:
    model, lines = Workbench(), []
    model.events.operated.connect(lambda rec: lines.append(describe(rec)))
    model.configure(m, k)
    for name in ("ana", "ivo", "marko", "petra", "lana"):
        model.insert(name)
    for name in ("ana", "zoran", "maja", "dino", "vesna", "tin", "iva", "luka"):
        model.lookup(name)
    return lines


def describe(rec) -> str:
    text = f"{rec.op:<7} {rec.item!r:<9} bits {list(rec.positions)} -> {rec.verdict}"
    if rec.culprits:   # a false positive: for each of its bits, the inserted items that set it
        text += "; set by " + ", ".join(f"{pos}: {'/'.join(map(str, items))}"
                                        for pos, (items, _total) in sorted(rec.culprits.items()))
    return text


if __name__ == "__main__":
    print("\n".join(main()))
