//! The second half of the layered layout: where each layer and each item
//! sits. Layers stand side by side, as far apart as their widest label
//! needs; within a layer each item is pulled toward the mean height of its
//! neighbours, then spread to keep the order and the room each takes (a
//! state its circle, the loop on top of it and its name under it).

use super::layers::Layers;
use super::{LABEL_CHAR, LOOP, RADIUS, TEXT_HEIGHT};
use crate::explain::stage::graph::Graph;

pub(super) type Point = (f64, f64);

/// The room an item takes in its layer: above and below its centre, and
/// half its width.
#[derive(Clone, Copy)]
struct Room {
    above: f64,
    below: f64,
    half: f64,
}

fn rooms(graph: &Graph, layers: &Layers) -> Vec<Room> {
    (0..layers.layer_of.len())
        .map(|item| {
            if !layers.is_state(item) {
                return Room {
                    above: 3.0,
                    below: 3.0,
                    half: 0.0,
                };
            }
            let looped = graph.edges.iter().any(|e| e.from == item && e.to == item);
            let name = graph.nodes[item].name.chars().count() as f64 * LABEL_CHAR;
            Room {
                above: RADIUS + if looped { LOOP + TEXT_HEIGHT } else { 0.0 },
                below: RADIUS + if name > 0.0 { TEXT_HEIGHT + 4.0 } else { 0.0 },
                half: RADIUS.max(name / 2.0 + 4.0),
            }
        })
        .collect()
}

/// Each layer's x: apart by the halves of the widest items on either side
/// and the widest label of an edge between them, times `scale`.
fn columns(graph: &Graph, layers: &Layers, rooms: &[Room], scale: f64) -> Vec<f64> {
    let half = |l: usize| {
        layers.layers[l]
            .iter()
            .map(|&item| rooms[item].half)
            .fold(0.0, f64::max)
    };
    let mut label = vec![0.0_f64; layers.layers.len()];
    for (edge, chain) in graph.edges.iter().zip(&layers.chains) {
        let width = edge.label.chars().count() as f64 * LABEL_CHAR;
        for pair in chain.windows(2) {
            let gap = layers.layer_of[pair[0]].min(layers.layer_of[pair[1]]);
            label[gap] = label[gap].max(width);
        }
    }
    let mut x = vec![0.0];
    for l in 1..layers.layers.len() {
        let gap = (label[l - 1] + 30.0).max(60.0) * scale;
        x.push(x[l - 1] + half(l - 1) + gap + half(l));
    }
    x
}

/// The heights nearest `wanted` (least squares) that keep the order and put
/// at least `gaps[i]` between item `i` and item `i + 1`: pool adjacent
/// violators, on the heights less the gaps above them.
fn spread(wanted: &[f64], gaps: &[f64]) -> Vec<f64> {
    let mut offset = vec![0.0; wanted.len()];
    for i in 1..wanted.len() {
        offset[i] = offset[i - 1] + gaps[i - 1];
    }
    // (sum, count) of each block of items that share one shifted height
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (w, o) in wanted.iter().zip(&offset) {
        blocks.push((w - o, 1));
        while let [.., (s1, n1), (s2, n2)] = blocks[..] {
            if s1 / n1 as f64 <= s2 / n2 as f64 {
                break;
            }
            blocks.truncate(blocks.len() - 2);
            blocks.push((s1 + s2, n1 + n2));
        }
    }
    let shifted = blocks
        .iter()
        .flat_map(|&(sum, n)| std::iter::repeat_n(sum / n as f64, n));
    shifted.zip(&offset).map(|(z, o)| z + o).collect()
}

/// Where every item of the layers sits, `scale` widening every gap.
pub(super) fn positions(graph: &Graph, layers: &Layers, scale: f64) -> Vec<Point> {
    let rooms = rooms(graph, layers);
    let x = columns(graph, layers, &rooms, scale);
    let gaps: Vec<Vec<f64>> = layers
        .layers
        .iter()
        .map(|layer| {
            let pairs = layer.windows(2);
            pairs
                .map(|p| {
                    // Bends pack closer than states: a DFA's many returns
                    // to the start would otherwise make it very tall.
                    let space = match (layers.is_state(p[0]), layers.is_state(p[1])) {
                        (true, true) => 22.0,
                        (false, false) => 6.0,
                        _ => 12.0,
                    };
                    rooms[p[0]].below + rooms[p[1]].above + space * scale
                })
                .collect()
        })
        .collect();
    let mut y = vec![0.0; layers.layer_of.len()];
    for (layer, gaps) in layers.layers.iter().zip(&gaps) {
        let stacked = spread(&vec![0.0; layer.len()], gaps);
        let middle = stacked.last().copied().unwrap_or(0.0) / 2.0;
        for (&item, h) in layer.iter().zip(stacked) {
            y[item] = h - middle;
        }
    }
    let mut near = vec![Vec::new(); y.len()];
    for &(a, b) in layers.segments().iter().flatten() {
        near[a].push(b);
        near[b].push(a);
    }
    for pass in 0..12 {
        let sequence: Vec<usize> = if pass % 2 == 0 {
            (0..layers.layers.len()).collect()
        } else {
            (0..layers.layers.len()).rev().collect()
        };
        for l in sequence {
            let wanted: Vec<f64> = layers.layers[l]
                .iter()
                .map(|&item| match near[item].len() {
                    0 => y[item],
                    n => near[item].iter().map(|&other| y[other]).sum::<f64>() / n as f64,
                })
                .collect();
            for (&item, h) in layers.layers[l].iter().zip(spread(&wanted, &gaps[l])) {
                y[item] = h;
            }
        }
    }
    let mut at: Vec<Point> = (0..y.len())
        .map(|i| (x[layers.layer_of[i]], y[i]))
        .collect();
    place_apart(graph, layers, &rooms, &mut at);
    at
}

/// The states drawn apart go under everything else, at the left.
fn place_apart(graph: &Graph, layers: &Layers, rooms: &[Room], at: &mut [Point]) {
    let bottom = layers
        .layers
        .iter()
        .flatten()
        .map(|&item| at[item].1 + rooms[item].below)
        .fold(f64::MIN, f64::max);
    let mut y = if bottom == f64::MIN {
        0.0
    } else {
        bottom + 30.0
    };
    for &state in &layers.apart {
        y += RADIUS;
        at[state] = (at[graph.start].0, y);
        y += RADIUS + 2.0 * TEXT_HEIGHT;
    }
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spreading_keeps_the_order_and_the_gaps_and_moves_no_more_than_it_must() {
        assert_eq!(spread(&[0.0, 100.0], &[10.0]), vec![0.0, 100.0]);
        assert_eq!(spread(&[0.0, 0.0], &[10.0]), vec![-5.0, 5.0]);
        assert_eq!(
            spread(&[5.0, 0.0, 50.0], &[10.0, 10.0]),
            vec![-2.5, 7.5, 50.0]
        );
    }
}
