//! The bad values of a batch of rows: each checked leaf's array found
//! through the lists, maps and structs above it, checked a column at a time
//! by utf8-arrow, and each bad value traced back to its row.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait, RecordBatch};
use arrow_buffer::{ArrowNativeType, OffsetBuffer};
use arrow_schema::DataType;
use utf8_core::{Ruleset, Utf8Error};

/// A value that is not valid, with what its report needs.
pub struct BadValue {
    /// Which checked leaf holds it (an index into the file's leaves).
    pub leaf: usize,
    /// Its row, counted from the batch's first (the caller makes it the
    /// file's).
    pub row: u64,
    /// Its place among the row's values of the leaf, for a leaf inside a
    /// list or map; `None` for one value per row.
    pub element: Option<usize>,
    /// Where the check of the value began or, after an earlier error of
    /// the same value (`--all`), began again.
    pub resumed_at: usize,
    /// Where the error is, in the value.
    pub offset: usize,
    /// How many bytes are invalid; `None` when the value ends inside a
    /// character, whose bytes up to the end are then all shown.
    pub error_len: Option<usize>,
    /// The value's bytes up to one past the error (to its end, for a value
    /// cut inside a character): what the error is explained from.
    pub bytes: Vec<u8>,
}

/// A dictionary checked once: the values array it was found in, and its
/// bad entries in order.
pub struct CheckedDictionary {
    values: ArrayRef,
    bad_entries: Vec<(usize, Utf8Error)>,
}

/// The bad values of `batch`'s leaves, ordered by row, then leaf, then
/// element: all of them, or with `all` unset, at most the first of each
/// leaf (the batch's first is the least). `dictionaries` holds each leaf's
/// last dictionary, from one batch of a row group to the next.
pub fn bad_values<R: Ruleset>(
    batch: &RecordBatch,
    all: bool,
    dictionaries: &mut Vec<Option<CheckedDictionary>>,
) -> Result<Vec<BadValue>, String> {
    let mut walk = Walk::<R> {
        leaf: 0,
        all,
        dictionaries,
        found: Vec::new(),
        ruleset: std::marker::PhantomData,
    };
    for column in batch.columns() {
        walk.visit(column.as_ref(), &mut Vec::new())?;
    }
    let mut found = walk.found;
    found.sort_by_key(|bad| (bad.row, bad.leaf, bad.element));
    Ok(found)
}

/// How a level of nesting maps an element to its parent: the list's or
/// map's own offsets (a shared buffer, not copied: most batches have no bad
/// value to trace), or a fixed-size list's size.
#[derive(Clone)]
enum Level {
    Small(OffsetBuffer<i32>),
    Large(OffsetBuffer<i64>),
    Fixed(usize),
}

impl Level {
    /// The parent holding element `index`.
    fn parent(&self, index: usize) -> usize {
        // The last parent starting at or before `index`: the one whose
        // range holds it (an empty parent holds nothing).
        match self {
            Level::Small(offsets) => offsets.partition_point(|&start| start as usize <= index) - 1,
            Level::Large(offsets) => offsets.partition_point(|&start| start as usize <= index) - 1,
            Level::Fixed(size) => index / size,
        }
    }

    /// The first element of parent `parent`.
    fn first_element(&self, parent: usize) -> usize {
        match self {
            Level::Small(offsets) => offsets[parent] as usize,
            Level::Large(offsets) => offsets[parent] as usize,
            Level::Fixed(size) => parent * size,
        }
    }
}

struct Walk<'d, R> {
    /// The next leaf's index.
    leaf: usize,
    all: bool,
    dictionaries: &'d mut Vec<Option<CheckedDictionary>>,
    found: Vec<BadValue>,
    ruleset: std::marker::PhantomData<R>,
}

impl<R: Ruleset> Walk<'_, R> {
    fn visit(&mut self, array: &dyn Array, levels: &mut Vec<Level>) -> Result<(), String> {
        match array.data_type() {
            DataType::List(_) => {
                let list = array.as_list::<i32>();
                within(list.offsets(), list.values().len())?;
                self.nested(
                    list.values().as_ref(),
                    Level::Small(list.offsets().clone()),
                    levels,
                )
            }
            DataType::LargeList(_) => {
                let list = array.as_list::<i64>();
                within(list.offsets(), list.values().len())?;
                self.nested(
                    list.values().as_ref(),
                    Level::Large(list.offsets().clone()),
                    levels,
                )
            }
            DataType::FixedSizeList(_, size) => {
                let list = array.as_fixed_size_list();
                let size = usize::try_from(*size).unwrap_or(0).max(1);
                self.nested(list.values().as_ref(), Level::Fixed(size), levels)
            }
            DataType::Map(..) => {
                let map = array.as_map();
                within(map.offsets(), map.entries().len())?;
                self.nested(map.entries(), Level::Small(map.offsets().clone()), levels)
            }
            DataType::Struct(_) => {
                for child in array.as_struct().columns() {
                    self.visit(child.as_ref(), levels)?;
                }
                Ok(())
            }
            DataType::Dictionary(..) => {
                let leaf = self.next_leaf();
                self.dictionary_leaf(leaf, array, levels)
            }
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
                let leaf = self.next_leaf();
                let bad = if self.all {
                    utf8_arrow::invalid_rows_as::<R>(array).map(Iterator::collect)
                } else {
                    utf8_arrow::validate_as::<R>(array).map_or_else(
                        |e| match e.column_error().map(|c| (c.row(), c.utf8_error())) {
                            Some((row, Some(error))) => Ok(vec![(row, error)]),
                            _ => Err(e),
                        },
                        |()| Ok(Vec::new()),
                    )
                }
                .map_err(|e| e.to_string())?;
                for (index, error) in bad {
                    self.record(leaf, index, error, value_bytes(array, index), levels);
                }
                Ok(())
            }
            // The reader is given byte array leaves unannotated: they come
            // back as bytes, never as strings it would have checked itself.
            other => Err(format!("a byte array column read as {other}, not as bytes")),
        }
    }

    fn next_leaf(&mut self) -> usize {
        self.leaf += 1;
        if self.dictionaries.len() < self.leaf {
            self.dictionaries.resize_with(self.leaf, || None);
        }
        self.leaf - 1
    }

    fn nested(
        &mut self,
        child: &dyn Array,
        level: Level,
        levels: &mut Vec<Level>,
    ) -> Result<(), String> {
        levels.push(level);
        let visited = self.visit(child, levels);
        levels.pop();
        visited
    }

    /// A dictionary leaf: its dictionary checked unless this leaf's last
    /// one was this one, then each row whose key names a bad entry.
    fn dictionary_leaf(
        &mut self,
        leaf: usize,
        array: &dyn Array,
        levels: &[Level],
    ) -> Result<(), String> {
        let dictionary = array.as_any_dictionary();
        let values = dictionary.values();
        let cached = &mut self.dictionaries[leaf];
        if !cached
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(&c.values, values))
        {
            *cached = Some(CheckedDictionary {
                values: Arc::clone(values),
                bad_entries: utf8_arrow::invalid_rows_as::<R>(values.as_ref())
                    .map_err(|e| e.to_string())?
                    .collect(),
            });
        }
        let checked = cached.as_ref().expect("checked just now");
        if checked.bad_entries.is_empty() {
            return Ok(());
        }
        let bad_entries = checked.bad_entries.clone();
        let values = Arc::clone(&checked.values);
        let keys = dictionary.normalized_keys();
        let nulls = dictionary.keys().logical_nulls();
        for (row, key) in keys.iter().enumerate() {
            if nulls.as_ref().is_some_and(|nulls| nulls.is_null(row)) {
                continue;
            }
            if let Ok(at) = bad_entries.binary_search_by_key(key, |&(entry, _)| entry) {
                let error = bad_entries[at].1;
                self.record(leaf, row, error, value_bytes(values.as_ref(), *key), levels);
                if !self.all {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A bad value at `index` of `leaf`'s array, traced through `levels`
    /// to its row.
    fn record(
        &mut self,
        leaf: usize,
        index: usize,
        error: Utf8Error,
        value: &[u8],
        levels: &[Level],
    ) {
        let row = levels
            .iter()
            .rev()
            .fold(index, |at, level| level.parent(at));
        let element = (!levels.is_empty()).then(|| {
            let first = levels
                .iter()
                .fold(row, |parent, level| level.first_element(parent));
            index - first
        });
        let mut resumed_at = 0;
        let mut error = error;
        loop {
            let offset = resumed_at + error.valid_up_to();
            let shown = match error.error_len() {
                Some(len) => (offset + len + 1).min(value.len()),
                None => value.len(),
            };
            self.found.push(BadValue {
                leaf,
                row: row as u64,
                element,
                resumed_at,
                offset,
                error_len: error.error_len(),
                bytes: value[..shown].to_vec(),
            });
            // `--all`: each invalid part of the value, the check taken up
            // again after it, as lossy decoding and the text check do.
            let Some(len) = error.error_len().filter(|_| self.all) else {
                break;
            };
            resumed_at = offset + len;
            match R::validate(&value[resumed_at..]) {
                Ok(()) => break,
                Err(next) => error = next,
            }
        }
    }
}

/// Whether a list's or map's offsets rise and stay within its values: the
/// reader builds them from the pages' levels, which a corrupt page can make
/// disagree with the values it decodes, and it does not check them itself
/// in a release build.
fn within<O: OffsetSizeTrait>(offsets: &OffsetBuffer<O>, values: usize) -> Result<(), String> {
    let rising = offsets.windows(2).all(|pair| pair[0] <= pair[1]);
    let (first, last) = (offsets[0], offsets[offsets.len() - 1]);
    if rising && first >= O::zero() && ArrowNativeType::as_usize(last) <= values {
        Ok(())
    } else {
        Err(format!(
            "list offsets {first:?}..{last:?} (rising: {rising}) past their {values} values"
        ))
    }
}

/// The bytes of value `index` of a byte array leaf.
fn value_bytes(array: &dyn Array, index: usize) -> &[u8] {
    match array.data_type() {
        DataType::Binary => array.as_binary::<i32>().value(index),
        DataType::LargeBinary => array.as_binary::<i64>().value(index),
        DataType::BinaryView => array.as_binary_view().value(index),
        // Only byte array leaves and dictionaries of them are checked.
        other => unreachable!("a bad value in a {other} array"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::Int32Type;
    use arrow_array::{BinaryArray, DictionaryArray, Int32Array};
    use utf8_core::Rfc3629;

    /// A batch of one dictionary column over `values`, each row naming an
    /// entry by `keys`.
    fn batch(values: &ArrayRef, keys: &[i32]) -> RecordBatch {
        let keys = Int32Array::from(keys.to_vec());
        let column = DictionaryArray::<Int32Type>::try_new(keys, Arc::clone(values)).unwrap();
        RecordBatch::try_from_iter([("d", Arc::new(column) as ArrayRef)]).unwrap()
    }

    fn rows(bad: &[BadValue]) -> Vec<u64> {
        bad.iter().map(|b| b.row).collect()
    }

    #[test]
    fn a_dictionary_is_checked_once_for_every_batch_that_shares_it() {
        let values: ArrayRef = Arc::new(BinaryArray::from_iter_values([
            &b"red"[..],
            b"bl\xFFu",
            b"gr\xC3\xBCn",
        ]));
        let mut dictionaries = vec![None];
        let first = bad_values::<Rfc3629>(&batch(&values, &[0, 1, 2, 1]), true, &mut dictionaries);
        assert_eq!(rows(&first.unwrap()), [1, 3]);

        // The next batch over the same dictionary takes its bad entries
        // from the check already made: told there are none, it finds none,
        // where checking the entries again would find entry 1.
        if let Some(checked) = &mut dictionaries[0] {
            checked.bad_entries.clear();
        }
        let next = bad_values::<Rfc3629>(&batch(&values, &[1, 0, 1]), true, &mut dictionaries);
        assert!(next.unwrap().is_empty());

        // Another dictionary, even with the same entries, is checked.
        let other: ArrayRef = Arc::new(BinaryArray::from_iter_values([&b"red"[..], b"bl\xFFu"]));
        let another = bad_values::<Rfc3629>(&batch(&other, &[1, 0, 1]), true, &mut dictionaries);
        assert_eq!(rows(&another.unwrap()), [0, 2]);
    }
}
