//! Parquet files of the corpus's strings, and the plain read that
//! `utf8 check` on them is measured against (bench/README.md, "Parquet
//! files").
//!
//! `parquet_corpus write DIR [MEGABYTES]` writes `lines.parquet` (every
//! line of the valid corpus, cut to at most 64 bytes, plain encoding) and
//! `words.parquet` (every word, dictionary encoding as the writer chooses
//! it), each about MEGABYTES of values (300 by default), Snappy-compressed,
//! in row groups of 1,048,576 rows, as unannotated `BYTE_ARRAY` columns: a
//! reader hands them over as bytes, unchecked.
//!
//! `parquet_corpus read FILE [THREADS]` reads every byte array column of
//! FILE as bytes with the parquet crate's Arrow reader, the row groups
//! shared among THREADS threads (1 by default), and prints the rows and
//! bytes read: the same reading `utf8 check` does, without the check.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use utf8_bench::{SHORT, lines_cut_to, valid_corpus};

const ROW_GROUP_ROWS: usize = 1 << 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", dir] => write(Path::new(dir), 300),
        ["write", dir, megabytes] => write(Path::new(dir), parse(megabytes)),
        ["read", file] => read(Path::new(file), 1),
        ["read", file, threads] => read(Path::new(file), parse(threads)),
        _ => {
            eprintln!("usage: parquet_corpus write DIR [MEGABYTES] | read FILE [THREADS]");
            std::process::exit(2);
        }
    }
}

fn parse(number: &str) -> usize {
    number.parse().unwrap_or_else(|_| {
        eprintln!("parquet_corpus: not a number: {number}");
        std::process::exit(2);
    })
}

fn write(dir: &Path, megabytes: usize) {
    std::fs::create_dir_all(dir).expect("the output directory");
    let corpus = valid_corpus();
    let lines: Vec<&str> = corpus
        .iter()
        .flat_map(|(_, text)| lines_cut_to(text, SHORT))
        .collect();
    let words: Vec<&str> = corpus
        .iter()
        .flat_map(|(_, text)| text.split_whitespace())
        .collect();
    for (name, strings, dictionary) in [("lines", &lines, false), ("words", &words, true)] {
        let path = dir.join(format!("{name}.parquet"));
        let written = write_column(&path, strings, megabytes << 20, dictionary);
        println!("{}: {written} bytes of values", path.display());
    }
}

/// Writes `strings` over and over as one column until `bytes` of values
/// are written; how many were.
fn write_column(path: &Path, strings: &[&str], bytes: usize, dictionary: bool) -> usize {
    let schema = Arc::new(parse_message_type("message corpus { REQUIRED BYTE_ARRAY s; }").unwrap());
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_dictionary_enabled(dictionary)
        .build();
    let sink = File::create(path).expect("create the file");
    let mut writer = SerializedFileWriter::new(sink, schema, Arc::new(properties)).unwrap();
    let mut written = 0;
    let mut next = strings.iter().cycle();
    while written < bytes {
        let group: Vec<ByteArray> = next
            .by_ref()
            .take(ROW_GROUP_ROWS)
            .map(|s| ByteArray::from(s.as_bytes()))
            .collect();
        written += group.iter().map(ByteArray::len).sum::<usize>();
        let mut row_group = writer.next_row_group().unwrap();
        let mut column = row_group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&group, None, None)
            .unwrap();
        column.close().unwrap();
        row_group.close().unwrap();
    }
    writer.close().unwrap();
    written
}

fn read(path: &Path, threads: usize) {
    let file = File::open(path).expect("the Parquet file");
    let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
    let groups = metadata.metadata().num_row_groups();
    let next_group = AtomicUsize::new(0);
    let (rows, bytes) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let (mut rows, mut bytes) = (0, 0);
                    loop {
                        let group = next_group.fetch_add(1, Ordering::Relaxed);
                        if group >= groups {
                            return (rows, bytes);
                        }
                        // Each reader opens its own file description: clones
                        // of one share an offset.
                        let own = File::open(path).expect("the Parquet file");
                        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(
                            own,
                            metadata.clone(),
                        )
                        .with_row_groups(vec![group])
                        .build()
                        .unwrap();
                        for batch in reader {
                            let batch = batch.unwrap();
                            rows += batch.num_rows();
                            bytes += batch.columns().iter().map(value_bytes).sum::<usize>();
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .fold((0, 0), |(r, b), (rows, bytes)| (r + rows, b + bytes))
    });
    println!("{rows} rows, {bytes} bytes of values");
}

/// The bytes of values in a byte array column, as its reader handed it
/// over (a dictionary's values once).
fn value_bytes(column: &ArrayRef) -> usize {
    if let Some(binary) = column.as_binary_opt::<i32>() {
        return binary.values().len();
    }
    match column.as_any_dictionary_opt() {
        Some(dictionary) => value_bytes(dictionary.values()),
        None => column.get_array_memory_size(),
    }
}
