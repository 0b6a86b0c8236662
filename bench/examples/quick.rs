use std::time::Instant;
fn time<F: FnMut() -> bool>(bytes: usize, mut f: F) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..30 {
        let t = Instant::now();
        let mut n = 0;
        while t.elapsed().as_millis() < 20 {
            assert!(std::hint::black_box(f()));
            n += 1;
        }
        best = best.min(t.elapsed().as_secs_f64() / n as f64);
    }
    bytes as f64 / best / 1e9
}
fn main() {
    let mut files = vec![];
    for dir in ["../shared/corpus/lipsum", "../shared/corpus/wikipedia_mars"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.to_str().unwrap().contains(".utf8.") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut ascii = vec![b'a'; 1 << 20];
    for (i, b) in ascii.iter_mut().enumerate() {
        *b = b' ' + (i % 90) as u8;
    }
    let mut inputs: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_str().unwrap().to_string(),
                std::fs::read(p).unwrap(),
            )
        })
        .collect();
    inputs.push(("ascii-1MiB".into(), ascii));
    let mut g = 0.0;
    let mut n = 0.0;
    for (name, v) in &inputs {
        let v = v.as_slice();
        let ours = time(v.len(), || {
            utf8_core::from_utf8(std::hint::black_box(v)).is_ok()
        });
        let std_ = time(v.len(), || {
            std::str::from_utf8(std::hint::black_box(v)).is_ok()
        });
        let simd = time(v.len(), || {
            simdutf8::basic::from_utf8(std::hint::black_box(v)).is_ok()
        });
        println!(
            "{name:32} ours {ours:6.2} std {std_:6.2} simdutf8 {simd:6.2}  ratio {:.2}",
            ours / simd
        );
        if name != "ascii-1MiB" {
            g += (ours / simd).ln();
            n += 1.0;
        }
    }
    println!("geomean vs simdutf8: {:.3}", (g / n).exp());
}
