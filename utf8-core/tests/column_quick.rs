//! A first differential check of the column API against per-row `core::str::from_utf8`.
use utf8_core::Rfc3629;
use utf8_core::column::{Column, Nulls, Offsets, PlainPage, Views};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_rows(rng: &mut Rng, rows: usize) -> Vec<Vec<u8>> {
    let pieces: [&[u8]; 10] = [
        b"a",
        b"hello",
        "é".as_bytes(),
        "€".as_bytes(),
        "💖".as_bytes(),
        b"\xC3",
        b"\xA9",
        b"\xF0\x9F",
        b"\xFF",
        b"\xED\xA0\x80",
    ];
    (0..rows)
        .map(|_| {
            let long = rng.below(10) == 0;
            let n = rng.below(if long { 120 } else { 8 });
            let mut row = Vec::new();
            for _ in 0..n {
                let rare = rng.below(30) == 0;
                let p = if rare { rng.below(10) } else { rng.below(5) };
                row.extend_from_slice(pieces[p as usize]);
            }
            row
        })
        .collect()
}

fn reference(rows: &[Vec<u8>], valid: &[bool]) -> Vec<(usize, usize, Option<usize>)> {
    rows.iter()
        .enumerate()
        .filter(|(i, _)| valid[*i])
        .filter_map(|(i, r)| {
            core::str::from_utf8(r)
                .err()
                .map(|e| (i, e.valid_up_to(), e.error_len()))
        })
        .collect()
}

#[test]
fn every_layout_agrees_with_per_row_std() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..300 {
        let n = rng.below(3000) as usize;
        let rows = random_rows(&mut rng, n);
        let with_nulls = round % 2 == 1;
        let valid: Vec<bool> = (0..n).map(|_| !with_nulls || rng.below(5) != 0).collect();
        let mut bits = vec![0u8; n.div_ceil(8) + 1];
        for (i, v) in valid.iter().enumerate() {
            if *v {
                bits[(i + 3) / 8] |= 1 << ((i + 3) % 8);
            }
        }
        let nulls = Nulls::new(&bits, 3);
        let expected = reference(&rows, &valid);
        let found = |it: &mut dyn Iterator<Item = (usize, utf8_core::Utf8Error)>| -> Vec<_> {
            it.map(|(r, e)| (r, e.valid_up_to(), e.error_len()))
                .collect()
        };
        // offsets
        let mut values = b"\x80junk".to_vec();
        let mut offsets = vec![values.len() as i32];
        for r in &rows {
            values.extend_from_slice(r);
            offsets.push(values.len() as i32);
        }
        values.extend_from_slice(b"\xBF");
        let mut col = Offsets::new(&offsets, &values).unwrap();
        if with_nulls {
            col = col.with_nulls(nulls).unwrap();
        }
        assert_eq!(
            found(&mut col.invalid_rows::<Rfc3629>()),
            expected,
            "offsets round {round}"
        );
        assert_eq!(
            col.validate::<Rfc3629>().err().map(|e| e.row()),
            expected.first().map(|e| e.0)
        );
        // views
        let mut buffer = Vec::new();
        let views: Vec<u128> = rows
            .iter()
            .map(|r| {
                if r.len() <= 12 {
                    let mut d = [0u8; 16];
                    d[..r.len()].copy_from_slice(r);
                    r.len() as u128 | (u128::from_le_bytes(d) << 32)
                } else {
                    let off = buffer.len() as u128;
                    buffer.extend_from_slice(r);
                    let p = u32::from_le_bytes(r[..4].try_into().unwrap()) as u128;
                    r.len() as u128 | (p << 32) | (off << 96)
                }
            })
            .collect();
        let buffers = [buffer.as_slice()];
        let mut col = Views::new(&views, &buffers).unwrap();
        if with_nulls {
            col = col.with_nulls(nulls).unwrap();
        }
        assert_eq!(
            found(&mut col.invalid_rows::<Rfc3629>()),
            expected,
            "views round {round}"
        );
        // page (no nulls)
        let mut page = Vec::new();
        for r in &rows {
            page.extend_from_slice(&(r.len() as u32).to_le_bytes());
            page.extend_from_slice(r);
        }
        let col = PlainPage::new(&page, n).unwrap();
        let all = vec![true; n];
        assert_eq!(
            found(&mut col.invalid_rows::<Rfc3629>()),
            reference(&rows, &all),
            "page round {round}"
        );
        // lossy
        let lossy = col.lossy::<Rfc3629>().unwrap();
        let again = PlainPage::new(&lossy, n).unwrap();
        assert!(again.validate::<Rfc3629>().is_ok());
        let cesu = Offsets::new(&offsets, &values).unwrap();
        let cesu_found: Vec<usize> = cesu
            .invalid_rows::<utf8_core::cesu8::Cesu8>()
            .map(|(r, _)| r)
            .collect();
        let cesu_expected: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| utf8_core::cesu8::validate(r).is_err())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(cesu_found, cesu_expected, "cesu8 round {round}");
    }
}
