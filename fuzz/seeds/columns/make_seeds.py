"""Writes the columns fuzz target's seeds: inputs in its own format (a
header of 6 bytes, row lengths ended by FE, then the rows' bytes; see
fuzz_targets/columns.rs) for each layout (offsets twice, views, a PLAIN
page) and each ruleset, with the rows cut from real text of several
scripts at its words, at lengths either side of 12 (a view's inline limit)
and of 255 (where a length takes two bytes), some with a character cut
across two rows, a bad byte, a null bitmap at a bit offset, or one
layout damage the target knows. Each is under the 4,096 bytes that
`.ci/fuzz` lets libFuzzer keep. Standard library only:

    python3 make_seeds.py
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "data", "corpus")
TEXTS = [
    "wikipedia_mars/english.utf8.txt",
    "wikipedia_mars/chinese.utf8.txt",
    "wikipedia_mars/arabic.utf8.txt",
    "lipsum/Emoji-Lipsum.utf8.txt",
    "lipsum/Hindi-Lipsum.utf8.txt",
    "wikipedia_mars/czech.utf8.txt",
]
LAYOUTS = ["offsets", "offsets-again", "views", "page"]
RULESETS = ["rfc3629", "cesu8", "mutf8", "wtf8", "rfc2279", "legacy31"]
NO_DAMAGE = 11


def text(index):
    with open(os.path.join(CORPUS, TEXTS[index % len(TEXTS)]), "rb") as file:
        return file.read(6000)


def words(data, limit):
    """Rows at the text's spaces, whole characters each, up to `limit` bytes."""
    rows, total = [], 0
    for word in data.split(b" "):
        word = word.strip(b"\n")
        if not word:
            continue
        if total + len(word) > limit:
            break
        rows.append(word)
        total += len(word)
    return rows


def pieces(data, count):
    """`count` rows of 13 to 40 bytes cut from the text at character starts,
    every eighth one of up to 12 instead."""
    rows, at = [], 0
    for k in range(count):
        want = 1 + k % 12 if k % 8 == 7 else 13 + k % 28
        end = at + want
        while end < len(data) and 0x80 <= data[end] < 0xC0:
            end += 1
        rows.append(data[at:end])
        at = end
    return rows


def encode(header, rows):
    lengths = bytearray()
    for row in rows:
        if len(row) >= 255:
            lengths += bytes([0xFF, len(row) - 255])
        else:
            lengths.append(len(row))
    return bytes(header) + bytes(lengths) + b"\xFE" + b"".join(rows)


def header(layout, ruleset, offset_type=0, damage=NO_DAMAGE, nulls=0xC0, at=0, value=0,
           alignment=0):
    return [layout + 4 * ruleset, offset_type + 5 * damage, nulls, at, value, alignment]


def save(name, data):
    assert len(data) <= 4096, (name, len(data))
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(data)


def main():
    for layout, layout_name in enumerate(LAYOUTS):
        for ruleset, ruleset_name in enumerate(RULESETS):
            data = text(layout + ruleset)
            rows = words(data, 1500)
            name = f"{layout_name}-{ruleset_name}"
            save(f"{name}-words", encode(header(layout, ruleset, offset_type=ruleset % 5), rows))
            # Rows either side of the inline limit and of 255 bytes.
            long = [data[:n].decode("utf-8", "ignore").encode() for n in (11, 12, 13, 254, 255, 256, 257)]
            save(f"{name}-edges", encode(header(layout, ruleset, alignment=ruleset * 5), long))
            # A character cut across two rows, a stray byte, and nulls at a
            # bit offset.
            cut = list(rows[:40])
            for at, row in enumerate(cut):
                if any(b >= 0x80 for b in row):
                    first = next(i for i, b in enumerate(row) if b >= 0xC0)
                    cut[at:at + 1] = [row[:first + 1], row[first + 1:]]
                    break
            cut.insert(len(cut) // 2, b"a\xffb")
            save(f"{name}-cut-and-nulls",
                 encode(header(layout, ruleset, nulls=ruleset + 3, value=0xA5), cut))
    # Views of mostly strings of 13 to 40 bytes back to back (value 2),
    # two whole chunks of 64 and a part, which the views check walks eight
    # at a time and then reads in one pass: whole, with a word of the 20th
    # view set, or of the 84th, in the second chunk (damage 7), and under a
    # bitmap (each value with bit 1 set).
    rows = pieces(text(1), 140)
    views = LAYOUTS.index("views")
    for name, extra in [("", {}), ("-damaged", {"damage": 7, "at": 19, "value": 0x42}),
                        ("-damaged-in-one-pass", {"damage": 7, "at": 83, "value": 0x42}),
                        ("-nulls", {"nulls": 3, "value": 0xB6})]:
        fields = {"value": 2, **extra}
        save(f"views-rfc3629-mostly-long{name}", encode(header(views, 0, **fields), rows))
    # One seed for each damage of each layout, on the same rows.
    rows = words(text(0), 600)
    for damage in range(11):
        layout = 0 if damage <= 3 else 2 if damage <= 7 else 3
        if damage == 10:
            layout = 0
        nulls = 5 if damage == 10 else 0xC0
        save(f"damage-{damage}-{LAYOUTS[layout]}",
             encode(header(layout, 0, offset_type=damage % 5, damage=damage, nulls=nulls,
                           at=7, value=0x41 + damage), rows))


main()
