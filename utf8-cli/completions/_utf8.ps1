
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'utf8' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'utf8'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'utf8' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('derive', 'derive', [CompletionResultType]::ParameterValue, 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON')
            [CompletionResult]::new('tables', 'tables', [CompletionResultType]::ParameterValue, 'Write the derived tables as Rust, C or JSON source')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected')
            [CompletionResult]::new('fix', 'fix', [CompletionResultType]::ParameterValue, 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'utf8;derive' {
            [CompletionResult]::new('--ruleset', '--ruleset', [CompletionResultType]::ParameterName, 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]')
            [CompletionResult]::new('--abnf', '--abnf', [CompletionResultType]::ParameterName, 'An ABNF file to derive instead of a built-in ruleset')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'The rule of the ABNF file that a whole valid input matches')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to write the explanation')
            [CompletionResult]::new('--stage', '--stage', [CompletionResultType]::ParameterName, 'Show one stage of the derivation alone; automata of more than 80 states are given as a table in the picture formats')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'utf8;tables' {
            [CompletionResult]::new('--ruleset', '--ruleset', [CompletionResultType]::ParameterName, 'A built-in ruleset: rfc3629, legacy31, cesu8, mutf8, wtf8, rfc2279 [default: rfc3629]')
            [CompletionResult]::new('--abnf', '--abnf', [CompletionResultType]::ParameterName, 'An ABNF file to derive instead of a built-in ruleset')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'The rule of the ABNF file that a whole valid input matches')
            [CompletionResult]::new('--emit', '--emit', [CompletionResultType]::ParameterName, 'The language to write the tables in')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'utf8;check' {
            [CompletionResult]::new('--ruleset', '--ruleset', [CompletionResultType]::ParameterName, 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to report errors (valid inputs print nothing), or with -l and --files-without-errors, how to print the paths (JSON: one `{"path": ...}` object per line)')
            [CompletionResult]::new('--parquet', '--parquet', [CompletionResultType]::ParameterName, 'When to read an input as a Parquet file, whose byte array columns are checked value by value (a bad value is reported with its column, row and row group)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Report every error, resynchronising after each invalid part as lossy decoding does; without it, the first error of each input')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on standard output; the exit status tells. Each input is read up to its first error. An input that cannot be read is still named on standard error')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on standard output; the exit status tells. Each input is read up to its first error. An input that cannot be read is still named on standard error')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print the path of each invalid input, one per line, instead of its errors. Each input is read up to its first error')
            [CompletionResult]::new('--files-with-errors', '--files-with-errors', [CompletionResultType]::ParameterName, 'Print the path of each invalid input, one per line, instead of its errors. Each input is read up to its first error')
            [CompletionResult]::new('--files-without-errors', '--files-without-errors', [CompletionResultType]::ParameterName, 'Print the path of each valid input, one per line, instead of the errors of the others')
            [CompletionResult]::new('--no-mmap', '--no-mmap', [CompletionResultType]::ParameterName, 'Read every file; without it, a regular file of 1 MiB or more is checked where it lies in the page cache, through a read-only memory map (Linux), which saves copying it. A file truncated meanwhile is reported as changed either way; bytes rewritten in place under a map are checked partly old, partly new, and reported as changed')
            [CompletionResult]::new('--strings-only', '--strings-only', [CompletionResultType]::ParameterName, 'In Parquet files, check only the byte array columns annotated as text (string, enum, JSON); without it, unannotated ones (binary) too')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Check the files under each directory argument, in the order of their paths, skipping hidden files and directories, what .gitignore, .ignore and .git/info/exclude exclude, symbolic links and binary files')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Check the files under each directory argument, in the order of their paths, skipping hidden files and directories, what .gitignore, .ignore and .git/info/exclude exclude, symbolic links and binary files')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Under -r, also check hidden files and directories (names that start with `.`)')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Under -r, also check the files that ignore files exclude')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Under -r, also check binary files (a NUL byte in the first 8 KiB)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'utf8;fix' {
            [CompletionResult]::new('--ruleset', '--ruleset', [CompletionResultType]::ParameterName, 'The ruleset to validate against: rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write here instead of standard output (- writes to standard output, as the PATH - reads standard input): never the input itself, named by its path or redirected to standard input (see --in-place)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write here instead of standard output (- writes to standard output, as the PATH - reads standard input): never the input itself, named by its path or redirected to standard input (see --in-place)')
            [CompletionResult]::new('--drop', '--drop', [CompletionResultType]::ParameterName, 'Delete each invalid part instead of replacing it with U+FFFD. Under wtf8 and cesu8 this can bring two surrogate halves together (a pair that WTF-8 forbids, or a CESU-8 pair out of two halves); the replacement never does, so prefer it there')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Replace the input file: write a temporary file beside it, then rename it over the input (a valid input is left untouched). Only a regular file is replaced. It keeps its permissions, and its owner and group where the user may give them (root may), else its group where the user is in it, else it becomes the user''s, as with `sed -i`; on Linux it keeps its extended attributes (its ACL, its SELinux label) where the file system holds them. A symbolic link stays a link: the file it points to is replaced')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'utf8;help' {
            [CompletionResult]::new('derive', 'derive', [CompletionResultType]::ParameterValue, 'Explain the derivation step by step: grammar, byte sequences, NFA, DFA, minimization, byte classes, tables and state diagram; or, with --stage, one stage alone as a table, a picture or JSON')
            [CompletionResult]::new('tables', 'tables', [CompletionResultType]::ParameterValue, 'Write the derived tables as Rust, C or JSON source')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that files are valid under a ruleset; report where and why they are not: line, column, offset, the bytes, and what was expected')
            [CompletionResult]::new('fix', 'fix', [CompletionResultType]::ParameterValue, 'Write a file with each invalid part replaced by U+FFFD (or dropped), as lossy decoding reads it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'utf8;help;derive' {
            break
        }
        'utf8;help;tables' {
            break
        }
        'utf8;help;check' {
            break
        }
        'utf8;help;fix' {
            break
        }
        'utf8;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
