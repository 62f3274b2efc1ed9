"""Every broadphase gives the answers of BruteForce, on hypothesis scenes."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import Circle, Polygon, Rect, overlaps
from collide2d.broadphase import (
    Broadphase,
    BruteForce,
    DuplicateKeyError,
    Quadtree,
    SortAndSweep,
    SortedStrips,
    UniformGrid,
    UnknownKeyError,
)

FACTORIES = {
    "grid": lambda: UniformGrid(cell_size=8),
    "grid-default": UniformGrid,
    "grid-dicts": lambda: answering_from_dicts(UniformGrid(cell_size=8)),
    "quadtree": lambda: Quadtree(capacity=2, max_depth=6),
    "quadtree-bounded": lambda: Quadtree(Rect(0, 0, 64, 64), capacity=1, max_depth=4),
    "sort-and-sweep": SortAndSweep,
    "sorted-strips": SortedStrips,
}


def answering_from_dicts(grid: UniformGrid) -> UniformGrid:
    """A grid that keeps its cells in dictionaries from the first query on (the
    World's way: queries between single moves), not after ``BUCKETS_AFTER``."""
    grid._buckets_after = 0
    return grid


# Coordinates on a coarse lattice make shared edges, corners and duplicates common.
lattice = st.integers(-6, 6).map(lambda v: v * 4)
extent = st.sampled_from([0, 0, 2, 4, 4, 8, 12])
huge = st.sampled_from([-(2.0**40), 2.0**40, -1e6, 1e6])
coord = st.one_of(lattice, lattice, lattice, huge)
rects = st.builds(Rect, coord, coord, extent, extent)
circles = st.builds(Circle, coord, coord, extent)
size = st.sampled_from([1, 2, 4, 8, 12])
angles = st.sampled_from([0.0, math.pi / 2, 0.3, -1.1, math.pi / 4])
polygons = st.builds(Polygon.box, coord, coord, size, size, angles)
shapes = st.one_of(rects, rects, circles, polygons)
keys = st.integers(0, 9)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), keys, shapes),
        st.tuples(st.just("update"), keys, shapes),
        st.tuples(st.just("remove"), keys, st.none()),
        st.tuples(st.just("pairs"), st.none(), st.none()),
    ),
    max_size=40,
)


def apply(index, op, key, shape):
    """Apply one operation; return the exception type it raised, if any."""
    try:
        if op == "add":
            index.add(key, shape)
        elif op == "update":
            index.update(key, shape)
        elif op == "remove":
            index.remove(key)
        else:
            return index.pairs()
    except (DuplicateKeyError, UnknownKeyError) as error:
        return type(error)
    return None


def check_queries(reference, index, probe):
    assert index.pairs() == reference.pairs()
    turned = Polygon.box(*probe.center, probe.w + 1, probe.h + 1, 0.4)
    assert index.query_shape(turned) == reference.query_shape(turned)
    assert index.query_shape(probe) == reference.query_rect(probe)
    assert index.query_rect(probe) == reference.query_rect(probe)
    assert index.query_point(probe.center) == reference.query_point(probe.center)
    assert index.query_point(probe.min) == reference.query_point(probe.min)
    delta = (probe.w * 3 - 10, probe.h * 2 - 7)
    assert index.query_segment(probe.min, delta) == reference.query_segment(probe.min, delta)
    assert len(index) == len(reference) and set(index) == set(reference)
    index.validate()


@pytest.mark.parametrize("name", list(FACTORIES))
@given(ops=ops, probe=rects)
def test_every_operation_sequence_matches_brute_force(name, ops, probe):
    reference = BruteForce()
    index = FACTORIES[name]()
    assert isinstance(index, Broadphase)
    for op, key, shape in ops:
        assert apply(index, op, key, shape) == apply(reference, op, key, shape)
        if op == "pairs":
            index.validate()
    check_queries(reference, index, probe)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_shared_edges_and_points_are_not_pairs(name):
    index = FACTORIES[name]()
    index.add("a", Rect(0, 0, 8, 8))
    index.add("b", Rect(8, 0, 8, 8))  # shares an edge with a
    index.add("c", Rect(8, 8, 0, 0))  # a point on the shared corner
    index.add("d", Rect(4, 4, 0, 0))  # a point inside a
    index.add("e", Circle(20, 4, 4))  # touches b's right edge
    index.add("f", Circle(4, 4, 2))
    assert index.pairs() == [("a", "d"), ("a", "f"), ("d", "f")]
    assert index.query_point((8, 4)) == []
    assert index.query_segment((-4, 4), (40, 0)) == ["a", "f", "b", "e"]


@pytest.mark.parametrize("name", [*FACTORIES, "brute"])
def test_errors_name_the_problem_and_change_nothing(name):
    index = BruteForce() if name == "brute" else FACTORIES[name]()
    index.add("a", Rect(0, 0, 8, 8))
    index.add("b", Rect(4, 4, 8, 8))
    before = index.pairs()
    with pytest.raises(DuplicateKeyError, match="'a'"):
        index.add("a", Rect(0, 0, 1, 1))
    with pytest.raises(KeyError, match="'z'"):
        index.remove("z")
    with pytest.raises(ValueError, match="'z'"):
        index.update("z", Rect(0, 0, 1, 1))
    with pytest.raises(TypeError, match="shape"):
        index.add("c", (0, 0, 1))
    with pytest.raises(TypeError, match="shape"):
        index.update("a", "big")
    with pytest.raises(TypeError, match="hashable"):
        index.add(["list"], Rect(0, 0, 1, 1))
    with pytest.raises(TypeError, match="rect"):
        index.query_rect((0, 0, 1))
    with pytest.raises(ValueError, match="rect"):
        index.query_candidates((0, 0, -1, 1))
    with pytest.raises(ValueError, match="point"):
        index.query_point((math.nan, 0))
    assert index.pairs() == before and len(index) == 2 and "c" not in index
    index.validate()


def test_constructor_arguments_are_checked():
    with pytest.raises(ValueError, match="cell_size"):
        UniformGrid(cell_size=0)
    with pytest.raises(ValueError, match="cell_size"):
        UniformGrid(cell_size=math.inf)
    with pytest.raises(ValueError, match="capacity"):
        Quadtree(capacity=0)
    with pytest.raises(ValueError, match="max_depth"):
        Quadtree(max_depth=-1)
    with pytest.raises(TypeError, match="bounds"):
        Quadtree(bounds=[0, 0, 10])  # a rect-like (x, y, w, h) is taken, this is not


def test_quadtree_grows_to_fit_shapes_outside_its_bounds():
    tree = Quadtree(Rect(0, 0, 10, 10), capacity=1)
    tree.add(1, Rect(1, 1, 2, 2))
    tree.add(2, Rect(-50, 300, 5, 5))
    assert tree.bounds.left <= -50 and tree.bounds.bottom >= 305
    tree.validate()
    assert tree.query_point((-48, 302)) == [2]


def test_quadtree_does_not_split_forever_on_shapes_spanning_the_centre():
    tree = Quadtree(Rect(0, 0, 64, 64), capacity=2, max_depth=8)
    for i in range(10):
        tree.add(i, Rect(0, 0, 64, 64))
    assert len(tree.leaves()) == 1
    assert len(tree.pairs()) == 45


def test_check_counts_are_smaller_than_brute_force_on_a_sparse_scene():
    brute, tree = BruteForce(), Quadtree(capacity=4)
    for i in range(200):
        shape = Rect((i * 37) % 997, (i * 91) % 991, 6, 6)
        brute.add(i, shape)
        tree.add(i, shape)
    assert tree.pairs() == brute.pairs()
    assert brute.stats.tests == 200 * 199 // 2
    assert 0 < tree.stats.tests < brute.stats.tests / 20
    assert tree.stats.total_tests == tree.stats.tests


def test_sort_and_sweep_compacts_removed_slots_and_keeps_its_answers():
    reference, index = BruteForce(), SortAndSweep()
    for i in range(300):
        shape = Rect((i * 7) % 100, (i * 13) % 90, 9, 9) if i % 3 else Circle(i % 97, i % 83, 5)
        reference.add(i, shape)
        index.add(i, shape)
    assert index.pairs() == reference.pairs()
    for i in range(0, 300, 3):
        reference.remove(i)
        index.remove(i)
    for i in range(1, 300, 4):
        if i in reference:
            reference.remove(i)
            index.remove(i)
    assert index.pairs() == reference.pairs()  # after compaction: slots renumbered
    for i in range(2, 300, 5):
        if i in reference:
            moved = Rect(i % 50, i % 40, 12, 3)
            reference.update(i, moved)
            index.update(i, moved)
    assert index.pairs() == reference.pairs()
    index.validate()


@given(
    st.sets(st.integers(-50, 50)).map(sorted),
    st.sets(st.integers(-60, 60)).map(sorted),
)
def test_match_sorted_finds_each_value_of_the_old_codes(old, new):
    """The merge that lets SortAndSweep reuse last frame's pair tuples, against a dict."""
    import numpy as np

    from collide2d._kernels.pairs.search import match_sorted

    at = match_sorted(np.array(old, dtype=np.int64), np.array(new, dtype=np.int64))
    where = {value: k for k, value in enumerate(old)}
    assert at.tolist() == [where.get(value, -1) for value in new]


@pytest.mark.parametrize("name", list(FACTORIES))
def test_the_catalogue_of_awkward_shapes_gives_brute_force_answers(name):
    from tests import catalogue

    reference, index = BruteForce(), FACTORIES[name]()
    for key, shape in enumerate(catalogue.shapes()):
        reference.add(key, shape)
        index.add(key, shape)
    assert index.pairs() == reference.pairs()
    for probe in [shape for shape in catalogue.shapes() if isinstance(shape, Rect)]:
        assert index.query_rect(probe) == reference.query_rect(probe)
        assert index.query_point(probe.min) == reference.query_point(probe.min)
        assert index.query_segment(probe.min, (7, 3)) == reference.query_segment(probe.min, (7, 3))
    index.validate()


@pytest.mark.parametrize("name", list(FACTORIES))
def test_stats_name_the_method_and_the_brute_force_count(name):
    index = FACTORIES[name]()
    for i in range(10):
        index.add(i, Rect(i * 3, 0, 4, 4))
    index.pairs()
    assert index.stats.method in ("uniform_grid", "quadtree", "sort_and_sweep", "strips")
    assert index.stats.brute_force_tests == 45 and index.stats.tests > 0


@given(st.lists(shapes, max_size=12))
def test_brute_force_pairs_are_the_exact_overlaps_of_every_pair(scene):
    index = BruteForce()
    for key, shape in enumerate(scene):
        index.add(key, shape)
    expected = [
        (i, j)
        for i in range(len(scene))
        for j in range(i + 1, len(scene))
        if overlaps(scene[i], scene[j])
    ]
    assert index.pairs() == expected


@pytest.mark.parametrize("name", list(FACTORIES))
def test_polygons_are_filed_by_their_bounding_box_and_tested_exactly(name):
    index = FACTORIES[name]()
    index.add("ramp", Polygon([(0, 16), (16, 0), (16, 16)]))
    index.add("above", Rect(0, 0, 7, 7))  # inside the ramp's box, above its slope
    index.add("on", Rect(9, 9, 4, 4))
    index.add("crate", Polygon.box(30, 8, 4, 4, math.pi / 4))
    assert index.pairs() == [("ramp", "on")]
    assert index.query_point((15, 15)) == ["ramp"]
    assert index.query_segment((0, 10), (40, 0)) == ["ramp", "on", "crate"]
    index.update("above", Polygon.box(3, 3, 2, 2, 0.3))
    assert index.query_shape(Circle(3, 3, 1)) == ["above"]
    with pytest.raises(TypeError, match="shape must be a Rect, a Circle, a Polygon or rect-like"):
        index.add("bad", "wall")
    assert "bad" not in index
    index.validate()


@pytest.mark.parametrize(
    "name", ["grid", "grid-default", "grid-dicts", "quadtree", "quadtree-bounded"]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    frames=st.lists(st.sampled_from([1, 3, 20, 60, 200]), min_size=1, max_size=5),
)
def test_a_kept_structure_answers_as_a_new_one_while_some_shapes_move(name, seed, frames):
    """Grid and quadtree keep their structure while few shapes moved since it was
    built (the moved ones handled apart) and build again when many did: every frame,
    pairs and queries are brute force's, whichever way was taken."""
    import random

    rng = random.Random(seed)
    index, reference = FACTORIES[name](), BruteForce()

    def shape() -> Rect | Circle | Polygon:
        x, y = rng.randrange(-10, 60), rng.randrange(-10, 60)
        draw = rng.random()
        if draw < 0.2:
            return Circle(x, y, rng.randrange(0, 5))
        if draw < 0.3:
            return Polygon.box(x, y, rng.randrange(1, 9), rng.randrange(1, 9), rng.random())
        return Rect(x, y, rng.randrange(0, 9), rng.randrange(0, 9))

    for key in range(160):
        item = shape()
        index.add(key, item)
        reference.add(key, item)
    assert index.pairs() == reference.pairs()
    for moving in frames:  # 1 and 3 keep the structure; 60 and 200 build it again
        for key in rng.sample(range(160), min(moving, 160)):
            item = shape()
            index.update(key, item)
            reference.update(key, item)
        probe = Rect(rng.randrange(-5, 50), rng.randrange(-5, 50), 12, 9)
        assert index.query_rect(probe) == reference.query_rect(probe)
        assert index.pairs() == reference.pairs()
        assert index.query_point(probe.center) == reference.query_point(probe.center)
        if rng.random() < 0.3:  # a shape goes and comes back: a new structure
            key = rng.randrange(160)
            index.remove(key)
            reference.remove(key)
            assert index.pairs() == reference.pairs()
            item = shape()
            index.add(key, item)
            reference.add(key, item)
    assert index.pairs() == reference.pairs()
    index.validate()


@pytest.mark.parametrize("name", [*FACTORIES, "brute"])
@given(seed=st.integers(0, 2**32 - 1))
def test_update_rects_is_update_one_by_one(name, seed):
    import random

    import numpy as np

    rng = random.Random(seed)
    make = BruteForce if name == "brute" else FACTORIES[name]
    bulk, single = make(), make()
    for key in range(40):
        shape = (
            Circle(rng.randrange(0, 40), rng.randrange(0, 40), 3)
            if key % 5 == 0
            else Rect(rng.randrange(0, 40), rng.randrange(0, 40), 4, 5)
        )
        bulk.add(key, shape)
        single.add(key, shape)
    bulk.pairs()
    keys = rng.sample(range(40), rng.randrange(0, 41))
    rows = np.array([[rng.randrange(-5, 45), rng.randrange(-5, 45), rng.randrange(0, 9),
                      rng.randrange(0, 9)] for _ in keys], dtype=float).reshape(-1, 4)  # fmt: skip
    bulk.update_rects(keys, rows)
    for key, row in zip(keys, rows.tolist(), strict=True):
        single.update(key, Rect(*row))
    assert bulk.pairs() == single.pairs()
    assert [bulk.get(k) for k in range(40)] == [single.get(k) for k in range(40)]
    probe = Rect(10, 10, 15, 12)
    assert bulk.query_rect(probe) == single.query_rect(probe)
    bulk.validate()


@pytest.mark.parametrize("name", [*FACTORIES, "brute"])
def test_update_rects_refuses_bad_input_and_changes_nothing(name):
    index = BruteForce() if name == "brute" else FACTORIES[name]()
    index.add("a", Rect(0, 0, 2, 2))
    index.add("b", Rect(1, 1, 2, 2))
    before = index.pairs()
    for keys, rects, error, words in [
        (["a", "z"], [[0, 0, 1, 1], [0, 0, 1, 1]], UnknownKeyError, "z"),
        (["a"], [[0, 0, 1]], ValueError, "shape"),
        (["a"], [[0, 0, -1, 1]], ValueError, "sizes"),
        (["a"], [[0, math.nan, 1, 1]], ValueError, "finite"),
        (["a"], "four", TypeError, "rects"),
    ]:
        with pytest.raises(error, match=words):
            index.update_rects(keys, rects)
    assert index.pairs() == before and index.get("a") == Rect(0, 0, 2, 2)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_query_candidates_name_each_key_once(name):
    """A shape kept apart (its edges overflow) that then moved is still one candidate."""
    index = FACTORIES[name]()
    for key in range(30):
        index.add(key, Rect(key, key, 3, 3))
    index.add("far", Rect(1e308, 0, 1e308, 1))
    index.pairs()
    index.query_rect(Rect(0, 0, 5, 5))
    index.update("far", Rect(1, 1, 2, 2))
    found = index.query_candidates(Rect(0, 0, 5, 5))
    assert len(found) == len(set(found)) and "far" in found


def test_a_quadtree_takes_its_bounds_as_any_rect_like_and_names_bad_ones():
    from collide2d import Quadtree

    a, b = Quadtree((0, 0, 100, 100)), Quadtree(Rect(0, 0, 100, 100))
    for tree in (a, b):
        tree.add("x", Rect(10, 10, 5, 5))
    assert a.query_point((12, 12)) == b.query_point((12, 12)) == ["x"]
    with pytest.raises(TypeError, match="bounds must be a Rect or rect-like"):
        Quadtree("everywhere")
    with pytest.raises(ValueError, match="bounds"):
        Quadtree((0, 0, -1, 1))


@given(st.lists(st.tuples(lattice, lattice, extent, extent), min_size=2, max_size=40))
def test_quadtree_leaves_name_each_overlapping_pair_once(rows):
    # A pair listed together in several leaves is named in one: the leaf holding the
    # top-left corner of its overlap (``leaf_pair_codes``). The codes, unsorted and
    # before any deduplication, are every strictly overlapping pair, once each.
    tree = Quadtree(capacity=1, max_depth=6)
    for k, row in enumerate(rows):
        tree.add(k, Rect(*row))
    built = tree._structure()
    codes, _, _ = tree._structure_pairs(built)
    n = len(built.live)
    inside = set(range(n)) - set(built.apart.tolist())
    want = {
        i * n + j
        for i in inside
        for j in inside
        if i < j and overlaps(Rect(*rows[i]), Rect(*rows[j]))
    }
    assert sorted(codes.tolist()) == sorted(want)
    assert len(set(codes.tolist())) == len(codes)


OPERATIONS = ("rects_same", "rects_other", "update", "remove", "add", "pairs", "get", "query")


@pytest.mark.parametrize("name", [*FACTORIES, "brute"])
@given(seed=st.integers(0, 2**32 - 1), ops=st.lists(st.sampled_from(OPERATIONS), max_size=12))
def test_update_rects_between_other_calls_is_update_one_by_one(name, seed, ops):
    # ``ArrayIndex`` keeps update_rects' rectangles as an array and makes their Rect
    # objects when a shape is read (a frame of update_rects and pairs makes none):
    # calls of every kind in between, the same keys again or others, circles among
    # them, and the caller's array changed after the call, answer as update does.
    import random

    import numpy as np

    rng = random.Random(seed)
    make = BruteForce if name == "brute" else FACTORIES[name]
    bulk, single = make(), make()
    same = rng.sample(range(30), 12)
    for key in range(30):
        shape = Circle(rng.randrange(0, 40), rng.randrange(0, 40), 3) if key % 7 == 0 else Rect(
            rng.randrange(0, 40), rng.randrange(0, 40), 4, 5)  # fmt: skip
        bulk.add(key, shape)
        single.add(key, shape)
    next_key = 30
    for op in ops:
        present = list(single)
        if op.startswith("rects"):
            keys = [k for k in same if k in single] if op == "rects_same" else rng.sample(
                present, rng.randrange(0, len(present) + 1))  # fmt: skip
            rows = np.array([[rng.randrange(-5, 45), rng.randrange(-5, 45), rng.randrange(0, 9),
                              rng.randrange(0, 9)] for _ in keys], dtype=float).reshape(-1, 4)  # fmt: skip
            bulk.update_rects(keys, rows)
            for key, row in zip(keys, rows.tolist(), strict=True):
                single.update(key, Rect(*row))
            rows += 1000.0  # the caller's array, changed after the call
        elif op == "update" and present:
            key = rng.choice(present)
            shape = Rect(rng.randrange(0, 40), rng.randrange(0, 40), 6, 2)
            bulk.update(key, shape)
            single.update(key, shape)
        elif op == "remove" and present:
            key = rng.choice(present)
            bulk.remove(key)
            single.remove(key)
        elif op == "add":
            shape = Circle(rng.randrange(0, 40), rng.randrange(0, 40), 2)
            bulk.add(next_key, shape)
            single.add(next_key, shape)
            next_key += 1
        elif op == "pairs":
            assert bulk.pairs() == single.pairs()
        elif op == "get" and present:
            key = rng.choice(present)
            assert bulk.get(key) == single.get(key)
        elif op == "query":
            probe = Rect(rng.randrange(0, 40), rng.randrange(0, 40), 9, 7)
            assert bulk.query_rect(probe) == single.query_rect(probe)
        assert len(bulk) == len(single) and list(bulk) == list(single)
    assert bulk.pairs() == single.pairs()
    assert [bulk.get(k) for k in single] == [single.get(k) for k in single]
    bulk.validate()


@pytest.mark.parametrize("name", [*FACTORIES, "brute"])
def test_a_circle_updated_within_the_same_bounds_is_tested_again(name):
    # At 2**53 a float's step is 2: circles of radius 0.5 and 0.25 there have the same
    # bounds, and only the exact test tells that the smaller misses its neighbour.
    # update's fast path for a circle keeps the structure then, not the answer.
    index = BruteForce() if name == "brute" else FACTORIES[name]()
    far = 2.0**53
    index.add("a", Circle(far, far, 0.5))
    index.add("b", Circle(far + 2.0, far, 1.6))
    assert index.pairs() == [("a", "b")]
    index.update("a", Circle(far, far, 0.25))
    assert index.pairs() == []
    index.update("a", Circle(far, far, 0.5))
    assert index.pairs() == [("a", "b")]
