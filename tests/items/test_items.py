"""Items: the encoding policy, seeded random items, and reading items from a text file."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.items import encoding as items
from bloomviz.items.encoding import (ItemFileError, LineReport, check_item_file, describe, encode_texts, prepare_items,
                                 random_items, read_item_lines, to_bytes, to_bytes_list)
from reference_draws import random_items_with_a_set_of_all

SPECIAL = ["", "\x00", "a\x00b", "😀", "\ud800", "x\udfffy", "héllo", "\n", " "]


# --- encoding ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", SPECIAL)
def test_str_is_utf8_with_surrogatepass(text):
    assert to_bytes(text) == text.encode("utf-8", "surrogatepass")
    assert to_bytes(text).decode("utf-8", "surrogatepass") == text


def test_bytes_pass_through_and_buffers_become_bytes():
    assert to_bytes(b"\x00\xff") == b"\x00\xff"
    assert to_bytes(bytearray(b"ab")) == b"ab"
    assert type(to_bytes(memoryview(b"ab"))) is bytes


@pytest.mark.parametrize("bad", [1, 1.5, None, True, ["a"], ("a",), object()])
def test_other_types_are_refused_naming_the_type(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        to_bytes(bad)


def test_str_and_its_bytes_are_the_same_item_but_an_int_is_not_its_text():
    assert to_bytes("1") == to_bytes(b"1")
    with pytest.raises(TypeError):
        to_bytes(1)


@pytest.mark.parametrize("single", ["abc", b"abc"])
def test_to_bytes_list_refuses_a_single_item(single):
    with pytest.raises(TypeError, match="single"):
        to_bytes_list(single)
    with pytest.raises(TypeError, match="single"):
        prepare_items(single)


@given(st.lists(st.one_of(st.text(), st.binary()), max_size=30))
@settings(max_examples=60, deadline=None)
def test_to_bytes_list_is_to_bytes_of_each(values):
    assert to_bytes_list(values) == [to_bytes(v) for v in values]
    assert to_bytes_list(iter(values)) == [to_bytes(v) for v in values]


@given(st.lists(st.text(), max_size=30))
@settings(max_examples=60, deadline=None)
def test_encode_texts_matches_the_policy_with_and_without_surrogates(texts):
    for batch in (texts, texts + ["\ud800"], ["\udc80"] + texts):
        assert encode_texts(batch) == [t.encode("utf-8", "surrogatepass") for t in batch]


def test_prepare_items_keeps_str_and_encodes_the_rest():
    texts = ["a", "\ud800", ""]
    kept, is_text = prepare_items(texts)
    assert is_text and kept == texts
    kept, is_text = prepare_items(t for t in texts)  # a generator is read once into a list
    assert is_text and kept == texts
    mixed, is_text = prepare_items(["a", b"b"])
    assert not is_text and mixed == [b"a", b"b"]
    with pytest.raises(TypeError, match="int"):
        prepare_items(["a", 3])


@pytest.mark.parametrize("text, lines", [
    ("apple", None), ("", None), ("a\rb", None), ("a\u2028b\fc", None),    # no line ending: one item, as typed
    ("apple\n", ["apple"]), ("\n\napple\r\n  \n", ["apple"]), ("\n \n", []),   # a line with its ending
    ("a\nb", ["a", "b"]), ("a\r\nb\r\n", ["a", "b"]),
    ("l0\n\n \nl1\n", ["l0", "l1"]), (" a \nb", [" a ", "b"]),        # blank lines skipped; lines kept as typed
])
def test_typed_lines_says_whether_a_typed_text_is_one_item_or_a_list(text, lines):
    assert items.typed_lines(text) == lines


# the characters str.splitlines breaks at besides "\n": a paste split there, a file never did
OTHER_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.mark.parametrize("text", [
    "a\nb\n", "a\r\nb\r\n", "a\rb\nc", "key\u2028with a separator\nx\fy\n", "\n\n  \nl0\r\n\x85\nl1",
    "".join(f"{c}w{i}\n" for i, c in enumerate(OTHER_BREAKS)), " spaced \t\n\x0b\n",
])
def test_a_text_gives_the_same_items_pasted_as_read_from_a_file(tmp_path, text):
    path = _write(tmp_path, "pasted.txt", text.encode("utf-8"))
    by_file, by_paste = LineReport(), LineReport()
    from_file = [t for t, _ in read_item_lines(path, by_file)]
    assert items.item_lines(text, by_paste) == items.typed_lines(text) == from_file
    assert (by_paste.lines_read, by_paste.items, by_paste.blank) == (by_file.lines_read, by_file.items, by_file.blank)


def test_only_a_newline_ends_an_item_line():
    assert items.item_lines("".join(f"x{c}y\n" for c in OTHER_BREAKS)) == [f"x{c}y" for c in OTHER_BREAKS]
    assert items.item_lines("a\r\r\nb") == ["a\r", "b"]      # only the CR of the CRLF ending goes


def test_a_box_that_takes_one_item_takes_one_line_and_refuses_a_list():
    assert items.typed_item("apple") == "apple" and items.typed_item("apple\r\n") == "apple"
    assert items.typed_item(" a\u2028b ") == " a\u2028b " and items.typed_item("\n\n") == ""
    with pytest.raises(items.ItemError, match="the box holds 3 lines, and Remove takes one item"):
        items.typed_item("a\nb\nc\n", "Remove")


def test_describe_escapes_surrogates_and_control_characters_and_truncates():
    assert describe("plain") == "plain"
    assert "\\ud800" in describe("\ud800")
    assert "\\x00" in describe("a\x00")
    assert describe(b"ab") == "b'ab'"
    long = describe("x" * 500, limit=20)
    assert len(long) == 20 and long.endswith("…")


# --- random items -----------------------------------------------------------------------------------------
def test_random_items_are_distinct_reproducible_and_seeded():
    a = random_items(5000, seed=3)
    assert len(a) == 5000 and len(set(a)) == 5000
    assert a == random_items(5000, seed=3)
    assert a != random_items(5000, seed=4)
    assert all(isinstance(x, str) and len(x) == 16 for x in a)
    assert random_items(0) == []


@pytest.mark.parametrize("prefix", ["", "p", "é-", "😀", "\ud800", "a\nb"])
def test_random_items_carry_their_prefix(prefix):
    got = random_items(300, seed=1, prefix=prefix)
    assert len(set(got)) == 300
    assert all(x.startswith(prefix) and len(x) == len(prefix) + 16 for x in got)
    assert all(int(x[len(prefix):], 16) >= 0 for x in got)


def test_random_items_avoid_the_excluded_and_still_give_count():
    first = random_items(1000, seed=9, prefix="q")
    banned = first[::3] + [b"unrelated"]
    got = random_items(1000, seed=9, prefix="q", exclude=banned)
    assert len(got) == 1000 and len(set(got)) == 1000
    assert not set(got) & set(first[::3])
    # The items not excluded come out in the same order as without exclusion.
    assert [x for x in first if x not in set(first[::3])] == got[:len(first) - len(first[::3])]


@pytest.mark.parametrize("prefix", ["q", "é-", "\ud800"])
def test_random_items_exclude_matches_items_by_their_bytes(prefix):
    first = random_items(600, seed=4, prefix=prefix)
    # the same candidates given as str, bytes, a bytearray and a memoryview, among items that match none
    exclude = [first[1], to_bytes(first[7]), bytearray(to_bytes(first[20])), memoryview(to_bytes(first[33])),
               "x", b"y", first[0].upper() + "!"]
    want = random_items_with_a_set_of_all(600, 4, exclude, prefix)
    assert random_items(600, seed=4, prefix=prefix, exclude=exclude) == want
    assert random_items(600, seed=4, prefix=prefix, exclude=iter(exclude)) == want    # a one-shot iterable
    assert not {first[1], first[7], first[20], first[33]} & set(want) and len(want) == 600
    plain = [x for x in exclude if isinstance(x, (str, bytes))]
    assert random_items(600, seed=4, prefix=prefix, exclude=set(plain)) == \
        random_items_with_a_set_of_all(600, 4, plain, prefix)


def test_random_items_refuse_an_excluded_item_of_another_type():
    with pytest.raises(TypeError, match="int"):
        random_items(5, seed=1, exclude=["a", 3])


def test_random_items_fast_path_equals_general_path():
    # An exclusion set that cannot collide sends the same draw through the general (checking) loop.
    assert random_items(2000, seed=5, prefix="i") == random_items(2000, seed=5, prefix="i", exclude=["zz"])


def test_random_items_redraw_on_a_collision(monkeypatch):
    # Make the first draw contain a duplicate: the generator must notice and draw more.
    real = items._hex_items

    def colliding(raw, need, prefix):
        fresh, _ = real(raw, need, prefix)
        if need > 1:
            fresh[1] = fresh[0]
            return fresh, False
        return fresh, True

    monkeypatch.setattr(items, "_hex_items", colliding)
    got = random_items(50, seed=2)
    assert len(got) == 50 and len(set(got)) == 50


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", None])
def test_random_items_refuses_a_bad_count(bad):
    with pytest.raises(ValueError, match="count"):
        random_items(bad)


# --- reading items from a file ----------------------------------------------------------------------------
def _write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_reads_lines_stripping_bom_and_crlf(tmp_path):
    path = _write(tmp_path, "words.txt", b"\xef\xbb\xbfalpha\r\nbeta\r\ngamma")
    report = LineReport()
    got = list(read_item_lines(path, report))
    assert [t for t, _ in got] == ["alpha", "beta", "gamma"]
    assert got[-1][1] == os.path.getsize(path)
    assert [c for _, c in got] == sorted(c for _, c in got)
    assert report.items == 3 and report.ok and report.lines_read == 3


def test_bom_only_stripped_at_the_start(tmp_path):
    path = _write(tmp_path, "w.txt", b"a\n\xef\xbb\xbfb\n")
    assert [t for t, _ in read_item_lines(path)] == ["a", "\ufeffb"]


def test_blank_lines_are_skipped_and_counted(tmp_path):
    path = _write(tmp_path, "w.txt", b"a\n\n   \r\nb\n")
    report = LineReport()
    assert [t for t, _ in read_item_lines(path, report)] == ["a", "b"]
    assert report.blank == 2 and report.items == 2
    assert [t for t, _ in read_item_lines(path, skip_blank=False)] == ["a", "", "   ", "b"]


def test_undecodable_lines_are_reported_by_number_not_dropped_silently(tmp_path):
    path = _write(tmp_path, "w.txt", b"ok\n\xff\xfe bad\nfine\n\xc3(\nlast\n")
    report = LineReport()
    assert [t for t, _ in read_item_lines(path, report)] == ["ok", "fine", "last"]
    assert report.undecodable == [2, 4]
    assert not report.ok


def test_non_ascii_and_surrogate_free_text_round_trips(tmp_path):
    lines = ["héllo", "😀", "日本語", "tab\tinside"]
    path = _write(tmp_path, "w.txt", "\n".join(lines).encode("utf-8"))
    assert [t for t, _ in read_item_lines(path)] == lines


def test_missing_file_directory_and_binary_raise_item_file_error_naming_the_file(tmp_path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(ItemFileError, match="nope.txt"):
        list(read_item_lines(missing))
    with pytest.raises(ItemFileError, match=str(tmp_path.name)):
        check_item_file(tmp_path)
    binary = _write(tmp_path, "blob.bin", b"abc\x00\x01\x02")
    with pytest.raises(ItemFileError, match="blob.bin"):
        list(read_item_lines(binary))
    assert issubclass(ItemFileError, OSError)


def test_check_item_file_returns_the_size(tmp_path):
    path = _write(tmp_path, "w.txt", b"a\nb\n")
    assert check_item_file(path) == 4


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file_is_named(tmp_path):
    path = _write(tmp_path, "secret.txt", b"a\n")
    path.chmod(0)
    try:
        with pytest.raises(ItemFileError, match="secret.txt"):
            check_item_file(path)
    finally:
        path.chmod(0o600)
