"""Writes seeds for the dialects and legacy31 fuzz targets (their input is
the bytes to check, and the first byte chooses an alignment): real text
re-encoded in each dialect's own forms, which prose in UTF-8 never holds,
so that the fuzzer starts on the paths that only those forms reach:
CESU-8's surrogate pairs, modified UTF-8's two-byte NUL, WTF-8's lone
surrogates, and RFC 2279's and the 31-bit form's sequences of five and six
bytes and values past U+10FFFF. Each is under the 4,096 bytes that
`.ci/fuzz` lets libFuzzer keep. Standard library only:

    python3 make_seeds.py
"""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "data", "corpus")


def text(path, size=2500):
    with open(os.path.join(CORPUS, path), "rb") as file:
        data = file.read(size)
    return data.decode("utf-8", "ignore")


def encode(value, width=None):
    """`value` in the UTF-8 bit layout, in `width` bytes (the shortest by
    default), as RFC 2279 allows up to six bytes and 31 bits."""
    if width is None:
        width = next(n for n, top in ((1, 0x80), (2, 0x800), (3, 0x10000), (4, 0x200000),
                                      (5, 0x4000000), (6, 0x80000000)) if value < top)
    if width == 1:
        return bytes([value])
    lead = (0xFF << (8 - width)) & 0xFF
    tail = []
    for _ in range(width - 1):
        tail.append(0x80 | (value & 0x3F))
        value >>= 6
    return bytes([lead | value] + tail[::-1])


def surrogates(code):
    code -= 0x10000
    return 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)


def cesu8(string, nul_as_two_bytes=False):
    out = bytearray()
    for char in string:
        code = ord(char)
        if code >= 0x10000:
            for half in surrogates(code):
                out += encode(half)
        elif code == 0 and nul_as_two_bytes:
            out += b"\xc0\x80"
        else:
            out += encode(code)
    return bytes(out)


def save(name, data):
    assert len(data) <= 4096, (name, len(data))
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(data)


def main():
    emoji = text("lipsum/Emoji-Lipsum.utf8.txt")
    chinese = text("wikipedia_mars/chinese.utf8.txt")
    english = text("wikipedia_mars/english.utf8.txt")
    save("cesu8-emoji", cesu8(emoji))
    save("cesu8-chinese", cesu8(chinese))
    save("mutf8-nul-and-emoji", cesu8(emoji.replace(" ", "\0"), nul_as_two_bytes=True))
    # WTF-8: a lone surrogate between words, pairs kept as four bytes.
    words = english.split(" ")
    lone = [encode(0xD800 + i * 97).decode("utf-8", "surrogatepass") for i in range(16)]
    wtf8 = " ".join(w + (lone[i % 16] if i % 5 == 0 else "") for i, w in enumerate(words))
    save("wtf8-lone-surrogates", wtf8.encode("utf-8", "surrogatepass"))
    # RFC 2279 and the 31-bit form: past U+10FFFF in four, five and six bytes.
    wide = bytearray()
    for i, char in enumerate(chinese[:500]):
        wide += encode(ord(char))
        if i % 7 == 0:
            wide += encode(0x110000 + i * 4099)
        if i % 11 == 0:
            wide += encode(0x200000 + i * 65537)
        if i % 13 == 0:
            wide += encode(0x4000000 + i * 1048573)
    save("rfc2279-past-u10ffff", bytes(wide))
    save("rfc2279-largest", encode(0x7FFFFFFF) + english[:200].encode() + encode(0x3FFFFFF))
    # Overlong forms, which every dialect refuses but modified UTF-8's NUL.
    overlong = b"".join(encode(ord(c), 3 if ord(c) < 0x80 else None) for c in english[:300])
    save("overlong", overlong)


main()
