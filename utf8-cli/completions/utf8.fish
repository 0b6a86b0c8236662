# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_utf8_global_optspecs
    string join \n h/help V/version
end

function __fish_utf8_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_utf8_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_utf8_using_subcommand
    set -l cmd (__fish_utf8_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c utf8 -n "__fish_utf8_needs_command" -s h -l help -d 'Print help'
complete -c utf8 -n "__fish_utf8_needs_command" -s V -l version -d 'Print version'
complete -c utf8 -n "__fish_utf8_needs_command" -f -a "derive" -d 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON'
complete -c utf8 -n "__fish_utf8_needs_command" -f -a "tables" -d 'Write the derived tables as Rust, C or JSON source'
complete -c utf8 -n "__fish_utf8_needs_command" -f -a "check" -d 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected'
complete -c utf8 -n "__fish_utf8_needs_command" -f -a "fix" -d 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it'
complete -c utf8 -n "__fish_utf8_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -l ruleset -d 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]' -r
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -l abnf -d 'An ABNF file to derive instead of a built-in ruleset' -r -F
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -l start -d 'The rule of the ABNF file that a whole valid input matches' -r
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -l format -d 'How to write the explanation' -r -f -a "text\t'The step-by-step report (or the stage\'s table) as plain text'
markdown\t'The report (or the stage\'s table) as Markdown, diagrams as Mermaid blocks'
mermaid\t'The state diagram alone (or the stage\'s), as Mermaid'
dot\t'The state diagram alone (or the stage\'s), as Graphviz DOT'
svg\t'The minimal DFA (or the stage) drawn as SVG'
json\t'The stage\'s data as JSON (needs --stage)'"
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -l stage -d 'Show one stage of the derivation alone; automata of more than 80 states are given as a table in the picture formats' -r -f -a "grammar\t'The grammar as parsed, core rules added (text, markdown, json)'
nfa\t'Thompson\'s NFA with its ε-moves'
dfa\t'The subset construction\'s DFA: each state\'s NFA states and shortest input'
rounds\t'Moore\'s refinement: each state\'s block after every round, one diagram a round'
minimal\t'The minimal DFA, its states named'
classes\t'The byte classes and the grid of every byte\'s class (text, markdown, svg, json)'"
complete -c utf8 -n "__fish_utf8_using_subcommand derive" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8 -n "__fish_utf8_using_subcommand tables" -l ruleset -d 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]' -r
complete -c utf8 -n "__fish_utf8_using_subcommand tables" -l abnf -d 'An ABNF file to derive instead of a built-in ruleset' -r -F
complete -c utf8 -n "__fish_utf8_using_subcommand tables" -l start -d 'The rule of the ABNF file that a whole valid input matches' -r
complete -c utf8 -n "__fish_utf8_using_subcommand tables" -l emit -d 'The language to write the tables in' -r -f -a "rust\t'`const` items and a `const fn accepts`'
c\t'`static const` arrays and an `accepts` function (C99)'
json\t'One object: states, classes, start, accepting, byte_classes, transitions'"
complete -c utf8 -n "__fish_utf8_using_subcommand tables" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l ruleset -d 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8' -r
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l format -d 'How to report errors (valid inputs print nothing), or with -l and --files-without-errors, how to print the paths (JSON: one `{"path": ...}` object per line)' -r -f -a "human\t'One line per error: path:line:column, offset, bytes, what was expected'
json\t'One JSON object per line per error: path, offset, len (null when the input ends inside a sequence), line, column, bytes (hex), expected, message'"
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l parquet -d 'When to read an input as a Parquet file, whose byte array columns are checked value by value (a bad value is reported with its column, row and row group)' -r -f -a "auto\t'A file whose name ends in `.parquet`, or that starts and ends with Parquet\'s magic bytes `PAR1`'
always\t'Every input, standard input too (copied to a temporary file first: Parquet\'s footer is at the end)'
never\t'None: every input is text'"
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l all -d 'Report every error, resynchronising after each invalid part as lossy decoding does; without it, the first error of each input'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -s q -l quiet -d 'Print nothing on standard output; the exit status tells. Each input is read up to its first error. An input that cannot be read is still named on standard error'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -s l -l files-with-errors -d 'Print the path of each invalid input, one per line, instead of its errors. Each input is read up to its first error'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l files-without-errors -d 'Print the path of each valid input, one per line, instead of the errors of the others'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l no-mmap -d 'Read every file; without it, a regular file of 1 MiB or more is checked where it lies in the page cache, through a read-only memory map (Linux), which saves copying it. A file truncated meanwhile is reported as changed either way; bytes rewritten in place under a map are checked partly old, partly new, and reported as changed'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l strings-only -d 'In Parquet files, check only the byte array columns annotated as text (string, enum, JSON); without it, unannotated ones (binary) too'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -s r -l recursive -d 'Check the files under each directory argument, in the order of their paths, skipping hidden files and directories, what .gitignore, .ignore and .git/info/exclude exclude, symbolic links and binary files'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l hidden -d 'Under -r, also check hidden files and directories (names that start with `.`)'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l no-ignore -d 'Under -r, also check the files that ignore files exclude'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -l binary -d 'Under -r, also check binary files (a NUL byte in the first 8 KiB)'
complete -c utf8 -n "__fish_utf8_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8 -n "__fish_utf8_using_subcommand fix" -l ruleset -d 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8' -r
complete -c utf8 -n "__fish_utf8_using_subcommand fix" -s o -l output -d 'Write here instead of standard output (- writes to standard output, as the PATH - reads standard input): never the input itself, named by its path or redirected to standard input (see --in-place)' -r -F
complete -c utf8 -n "__fish_utf8_using_subcommand fix" -l drop -d 'Delete each invalid part instead of replacing it with U+FFFD. Under wtf8 and cesu8 this can bring two surrogate halves together (a pair that WTF-8 forbids, or a CESU-8 pair out of two halves); the replacement never does, so prefer it there'
complete -c utf8 -n "__fish_utf8_using_subcommand fix" -l in-place -d 'Replace the input file: write a temporary file beside it, then rename it over the input (a valid input is left untouched). Only a regular file is replaced. It keeps its permissions, and its owner and group where the user may give them (root may), else its group where the user is in it, else it becomes the user\'s, as with `sed -i`; on Linux it keeps its extended attributes (its ACL, its SELinux label) where the file system holds them. A symbolic link stays a link: the file it points to is replaced'
complete -c utf8 -n "__fish_utf8_using_subcommand fix" -s h -l help -d 'Print help'
complete -c utf8 -n "__fish_utf8_using_subcommand help; and not __fish_seen_subcommand_from derive tables check fix help" -f -a "derive" -d 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON'
complete -c utf8 -n "__fish_utf8_using_subcommand help; and not __fish_seen_subcommand_from derive tables check fix help" -f -a "tables" -d 'Write the derived tables as Rust, C or JSON source'
complete -c utf8 -n "__fish_utf8_using_subcommand help; and not __fish_seen_subcommand_from derive tables check fix help" -f -a "check" -d 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected'
complete -c utf8 -n "__fish_utf8_using_subcommand help; and not __fish_seen_subcommand_from derive tables check fix help" -f -a "fix" -d 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it'
complete -c utf8 -n "__fish_utf8_using_subcommand help; and not __fish_seen_subcommand_from derive tables check fix help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
