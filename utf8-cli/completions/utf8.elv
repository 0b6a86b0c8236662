
use builtin;
use str;

set edit:completion:arg-completer[utf8] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'utf8'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'utf8'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand derive 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON'
            cand tables 'Write the derived tables as Rust, C or JSON source'
            cand check 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected'
            cand fix 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'utf8;derive'= {
            cand --ruleset 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]'
            cand --abnf 'An ABNF file to derive instead of a built-in ruleset'
            cand --start 'The rule of the ABNF file that a whole valid input matches'
            cand --format 'How to write the explanation'
            cand --stage 'Show one stage of the derivation alone; automata of more than 80 states are given as a table in the picture formats'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'utf8;tables'= {
            cand --ruleset 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]'
            cand --abnf 'An ABNF file to derive instead of a built-in ruleset'
            cand --start 'The rule of the ABNF file that a whole valid input matches'
            cand --emit 'The language to write the tables in'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'utf8;check'= {
            cand --ruleset 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8'
            cand --format 'How to report errors (valid inputs print nothing), or with -l and --files-without-errors, how to print the paths (JSON: one `{"path": ...}` object per line)'
            cand --parquet 'When to read an input as a Parquet file, whose byte array columns are checked value by value (a bad value is reported with its column, row and row group)'
            cand --all 'Report every error, resynchronising after each invalid part as lossy decoding does; without it, the first error of each input'
            cand -q 'Print nothing on standard output; the exit status tells. Each input is read up to its first error. An input that cannot be read is still named on standard error'
            cand --quiet 'Print nothing on standard output; the exit status tells. Each input is read up to its first error. An input that cannot be read is still named on standard error'
            cand -l 'Print the path of each invalid input, one per line, instead of its errors. Each input is read up to its first error'
            cand --files-with-errors 'Print the path of each invalid input, one per line, instead of its errors. Each input is read up to its first error'
            cand --files-without-errors 'Print the path of each valid input, one per line, instead of the errors of the others'
            cand --no-mmap 'Read every file; without it, a regular file of 1 MiB or more is checked where it lies in the page cache, through a read-only memory map (Linux), which saves copying it. A file truncated meanwhile is reported as changed either way; bytes rewritten in place under a map are checked partly old, partly new, and reported as changed'
            cand --strings-only 'In Parquet files, check only the byte array columns annotated as text (string, enum, JSON); without it, unannotated ones (binary) too'
            cand -r 'Check the files under each directory argument, in the order of their paths, skipping hidden files and directories, what .gitignore, .ignore and .git/info/exclude exclude, symbolic links and binary files'
            cand --recursive 'Check the files under each directory argument, in the order of their paths, skipping hidden files and directories, what .gitignore, .ignore and .git/info/exclude exclude, symbolic links and binary files'
            cand --hidden 'Under -r, also check hidden files and directories (names that start with `.`)'
            cand --no-ignore 'Under -r, also check the files that ignore files exclude'
            cand --binary 'Under -r, also check binary files (a NUL byte in the first 8 KiB)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'utf8;fix'= {
            cand --ruleset 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8'
            cand -o 'Write here instead of standard output (- writes to standard output, as the PATH - reads standard input): never the input itself, named by its path or redirected to standard input (see --in-place)'
            cand --output 'Write here instead of standard output (- writes to standard output, as the PATH - reads standard input): never the input itself, named by its path or redirected to standard input (see --in-place)'
            cand --drop 'Delete each invalid part instead of replacing it with U+FFFD. Under wtf8 and cesu8 this can bring two surrogate halves together (a pair that WTF-8 forbids, or a CESU-8 pair out of two halves); the replacement never does, so prefer it there'
            cand --in-place 'Replace the input file: write a temporary file beside it, then rename it over the input (a valid input is left untouched). Only a regular file is replaced. It keeps its permissions, and its owner and group where the user may give them (root may), else its group where the user is in it, else it becomes the user''s, as with `sed -i`; on Linux it keeps its extended attributes (its ACL, its SELinux label) where the file system holds them. A symbolic link stays a link: the file it points to is replaced'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'utf8;help'= {
            cand derive 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON'
            cand tables 'Write the derived tables as Rust, C or JSON source'
            cand check 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected'
            cand fix 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'utf8;help;derive'= {
        }
        &'utf8;help;tables'= {
        }
        &'utf8;help;check'= {
        }
        &'utf8;help;fix'= {
        }
        &'utf8;help;help'= {
        }
    ]
    $completions[$command]
}
