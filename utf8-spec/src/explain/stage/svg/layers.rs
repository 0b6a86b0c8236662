//! The first half of the layered layout (Sugiyama's, as Graphviz's `dot`
//! does it): which layer each state goes in, a bend in every layer a long
//! edge passes, and an order of each layer that crosses few edges.
//!
//! A state's layer is the longest path to it from the start over the edges
//! that run forward (deeper from the start, or level without closing a
//! cycle), then moved right to just before its nearest successor: for UTF-8
//! the start, then the lead bytes' states, then the states that count down
//! the tails. The other edges (back to the start) run right to left through
//! bends of their own, as dot draws them.

use crate::explain::stage::graph::Graph;

/// The states and the bends of long edges in layers, each ordered top to
/// bottom.
#[derive(Clone)]
pub(super) struct Layers {
    /// Items `0..states` are the states; the rest are bends of long edges.
    pub states: usize,
    pub layer_of: Vec<usize>,
    pub layers: Vec<Vec<usize>>,
    /// For each edge of the graph, the items it passes from its source to
    /// its target; empty for a self-loop.
    pub chains: Vec<Vec<usize>>,
    /// States with no edge but to themselves (the dead state), in no layer:
    /// they are drawn apart.
    pub apart: Vec<usize>,
}

impl Layers {
    pub fn is_state(&self, item: usize) -> bool {
        item < self.states
    }

    /// The pairs of items joined between layer `l` and layer `l + 1`, the
    /// item of layer `l` first.
    pub fn segments(&self) -> Vec<Vec<(usize, usize)>> {
        let mut segments = vec![Vec::new(); self.layers.len().saturating_sub(1)];
        for chain in &self.chains {
            for pair in chain.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (low, high) = if self.layer_of[a] < self.layer_of[b] {
                    (a, b)
                } else {
                    (b, a)
                };
                segments[self.layer_of[low]].push((low, high));
            }
        }
        segments
    }
}

/// Of `edges`, those that do not close a cycle, found by depth-first walks
/// from each of `roots` in turn; and the roots' states in topological order
/// of those edges.
fn acyclic(
    edges: &[(usize, usize)],
    states: usize,
    roots: &[usize],
) -> (Vec<(usize, usize)>, Vec<usize>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; states];
    let (mut forward, mut finished) = (Vec::new(), Vec::new());
    for &root in roots {
        if mark[root] != Mark::New {
            continue;
        }
        // (state, index of its next edge to look at)
        let mut stack = vec![(root, 0)];
        mark[root] = Mark::OnStack;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let to = edges.iter().filter(|e| e.0 == node).nth(*next);
            if let Some(&(_, to)) = to {
                *next += 1;
                match mark[to] {
                    Mark::New => {
                        forward.push((node, to));
                        mark[to] = Mark::OnStack;
                        stack.push((to, 0));
                    }
                    Mark::Done => forward.push((node, to)),
                    Mark::OnStack => {}
                }
            } else {
                mark[node] = Mark::Done;
                finished.push(node);
                stack.pop();
            }
        }
    }
    finished.reverse();
    (forward, finished)
}

/// Each state's breadth-first depth from the start, then from each state
/// not yet reached in turn.
fn depths(graph: &Graph, roots: &[usize]) -> Vec<usize> {
    let mut depth: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    for &root in roots {
        if depth[root].is_some() {
            continue;
        }
        depth[root] = Some(0);
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(from) = queue.pop_front() {
            for edge in graph.edges.iter().filter(|e| e.from == from) {
                if depth[edge.to].is_none() {
                    depth[edge.to] = depth[from].map(|d| d + 1);
                    queue.push_back(edge.to);
                }
            }
        }
    }
    depth.into_iter().map(|d| d.unwrap_or(0)).collect()
}

/// The edges that run forward, and the drawn states in an order they keep.
/// An edge runs forward when it goes deeper from the start, or stays as deep
/// without closing a cycle; the others (an automaton's edges back to where
/// a character starts) run back. Breadth first rather than a depth-first
/// walk alone, which would thread a DFA's many returns into one long chain.
fn forward_edges(graph: &Graph, apart: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let mut roots: Vec<usize> = std::iter::once(graph.start)
        .chain(0..graph.nodes.len())
        .filter(|s| !apart.contains(s))
        .collect();
    let depth = depths(graph, &roots);
    let pairs = graph
        .edges
        .iter()
        .map(|e| (e.from, e.to))
        .filter(|(f, t)| f != t);
    let (deeper, level): (Vec<_>, Vec<_>) = pairs
        .filter(|&(f, t)| depth[t] >= depth[f])
        .partition(|&(f, t)| depth[t] > depth[f]);
    roots.sort_by_key(|&s| depth[s]);
    let (level, mut order) = acyclic(&level, graph.nodes.len(), &roots);
    order.sort_by_key(|&s| depth[s]);
    (deeper.into_iter().chain(level).collect(), order)
}

/// Each drawn state's layer (`None` for the states drawn apart): the
/// longest path to it, then moved right to just before its nearest successor.
fn layer_states(graph: &Graph, apart: &[usize]) -> Vec<Option<usize>> {
    let (forward, order) = forward_edges(graph, apart);
    let mut layer: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    for &node in &order {
        let after = forward
            .iter()
            .filter(|&&(_, to)| to == node)
            .filter_map(|&(from, _)| layer[from])
            .max();
        layer[node] = Some(after.map_or(0, |l| l + 1));
    }
    for &node in order.iter().rev().filter(|&&n| n != graph.start) {
        let nearest = forward
            .iter()
            .filter(|&&(from, _)| from == node)
            .filter_map(|&(_, to)| layer[to])
            .min();
        if let (Some(nearest), Some(here)) = (nearest, layer[node]) {
            layer[node] = Some(here.max(nearest - 1));
        }
    }
    layer
}

/// The layers of `graph`, each edge given a bend in every layer it passes,
/// ordered to cross few edges.
pub(super) fn layers(graph: &Graph) -> Layers {
    let apart: Vec<usize> = (0..graph.nodes.len())
        .filter(|&s| s != graph.start)
        .filter(|&s| {
            graph
                .edges
                .iter()
                .all(|e| e.from == e.to || (e.from != s && e.to != s))
        })
        .collect();
    let layer = layer_states(graph, &apart);
    let states = graph.nodes.len();
    let mut layer_of: Vec<usize> = layer.iter().map(|l| l.unwrap_or(0)).collect();
    let mut chains = Vec::with_capacity(graph.edges.len());
    for edge in &graph.edges {
        if edge.from == edge.to {
            chains.push(Vec::new());
            continue;
        }
        let (from, to) = (layer_of[edge.from], layer_of[edge.to]);
        let mut chain = vec![edge.from];
        let bends: Vec<usize> = if from < to {
            (from + 1..to).collect()
        } else {
            (to + 1..from).rev().collect()
        };
        for l in bends {
            chain.push(layer_of.len());
            layer_of.push(l);
        }
        chain.push(edge.to);
        chains.push(chain);
    }
    let count = layer_of.iter().max().map_or(0, |&l| l + 1);
    let mut layers = vec![Vec::new(); count];
    for (item, &l) in layer_of.iter().enumerate() {
        if item >= states || layer[item].is_some() {
            layers[l].push(item);
        }
    }
    let mut layered = Layers {
        states,
        layer_of,
        layers,
        chains,
        apart,
    };
    order(&mut layered);
    layered
}

/// How many pairs of segments cross between each layer and the next, given
/// every item's place in its layer.
fn crossings(segments: &[Vec<(usize, usize)>], place: &[usize]) -> usize {
    segments.iter().map(|gap| gap_crossings(gap, place)).sum()
}

fn gap_crossings(gap: &[(usize, usize)], place: &[usize]) -> usize {
    let mut count = 0;
    for (i, &(a, b)) in gap.iter().enumerate() {
        for &(c, d) in &gap[i + 1..] {
            let left = place[a].cmp(&place[c]);
            let right = place[b].cmp(&place[d]);
            if left.is_ne() && right.is_ne() && left != right {
                count += 1;
            }
        }
    }
    count
}

fn places(layers: &Layers) -> Vec<usize> {
    let mut place = vec![0; layers.layer_of.len()];
    for layer in &layers.layers {
        for (i, &item) in layer.iter().enumerate() {
            place[item] = i;
        }
    }
    place
}

/// Barycentre sweeps, alternately down and up the layers, each followed by
/// swaps of neighbours that cross fewer edges; the best order seen is kept.
fn order(layers: &mut Layers) {
    let segments = layers.segments();
    let mut best = (crossings(&segments, &places(layers)), layers.layers.clone());
    for sweep in 0..16 {
        let down = sweep % 2 == 0;
        let sequence: Vec<usize> = if down {
            (1..layers.layers.len()).collect()
        } else {
            (0..layers.layers.len().saturating_sub(1)).rev().collect()
        };
        for l in sequence {
            let place = places(layers);
            let fixed = if down { l - 1 } else { l + 1 };
            let gap = &segments[l.min(fixed)];
            let mut keyed: Vec<(f64, usize)> = layers.layers[l]
                .iter()
                .map(|&item| {
                    let neighbours: Vec<f64> = gap
                        .iter()
                        .filter_map(|&(a, b)| match (a == item, b == item) {
                            (true, _) => Some(place[b] as f64),
                            (_, true) => Some(place[a] as f64),
                            _ => None,
                        })
                        .collect();
                    let key = match neighbours.len() {
                        0 => place[item] as f64,
                        n => neighbours.iter().sum::<f64>() / n as f64,
                    };
                    (key, item)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            layers.layers[l] = keyed.into_iter().map(|(_, item)| item).collect();
        }
        transpose(layers, &segments);
        let count = crossings(&segments, &places(layers));
        if count < best.0 {
            best = (count, layers.layers.clone());
        }
    }
    layers.layers = best.1;
}

/// Each item's neighbours in the layer before its own and in the one after.
fn neighbours(layers: &Layers, segments: &[Vec<(usize, usize)>]) -> Vec<[Vec<usize>; 2]> {
    let mut near = vec![[Vec::new(), Vec::new()]; layers.layer_of.len()];
    for &(a, b) in segments.iter().flatten() {
        near[a][1].push(b);
        near[b][0].push(a);
    }
    near
}

/// Swaps neighbours in a layer wherever that crosses fewer edges, until no
/// swap helps. Swapping `a` and `b` changes only the crossings of their own
/// segments with one another, so only those are counted.
fn transpose(layers: &mut Layers, segments: &[Vec<(usize, usize)>]) {
    let near = neighbours(layers, segments);
    let mut place = places(layers);
    // Crossings of `a`'s segments with `b`'s while `a` is above `b`.
    let crossed = |place: &[usize], a: usize, b: usize| -> usize {
        (0..2)
            .map(|side| {
                let pairs = near[a][side]
                    .iter()
                    .flat_map(|&x| near[b][side].iter().map(move |&y| (x, y)));
                pairs.filter(|&(x, y)| place[x] > place[y]).count()
            })
            .sum()
    };
    for _ in 0..8 {
        let mut improved = false;
        for l in 0..layers.layers.len() {
            for i in 0..layers.layers[l].len().saturating_sub(1) {
                let (a, b) = (layers.layers[l][i], layers.layers[l][i + 1]);
                if crossed(&place, b, a) < crossed(&place, a, b) {
                    layers.layers[l].swap(i, i + 1);
                    place.swap(a, b);
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}
