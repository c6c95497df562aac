//! `keyslot`: the slot of each key, from the command line, computed by the same core as the page.
//!
//! ```text
//! keyslot KEY...        one slot per key (keys in redis-cli escape syntax)
//! keyslot --hex < FILE  one lowercase-hex key per line on stdin (empty line = empty key)
//! ```
//! A bad key or line is reported on stderr (with its line number for `--hex`) and makes the
//! exit status 1; the good ones are still answered, in order.

use slotscope::core::key::escape::{from_hex, parse_key, EscapeError};
use slotscope::core::key_slot;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: keyslot KEY...        print the slot of each key (redis-cli escape syntax: \\xNN, \\n, \\\" ...)
       keyslot --hex < FILE  read one lowercase-hex key per line from stdin, print one slot per line";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("-h") | Some("--help") => {
            println!("{USAGE}");
            if args.is_empty() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Some("--hex") if args.len() == 1 => hex_mode(),
        Some("--hex") => {
            eprintln!("keyslot: --hex reads keys from stdin and takes no arguments\n{USAGE}");
            ExitCode::FAILURE
        }
        _ => args_mode(&args),
    }
}

/// Why a key or hex line could not be read, in plain English: the CLI's own wording (the page
/// words the same errors in the reader's language).
fn describe(e: &EscapeError) -> String {
    match e {
        EscapeError::BadHex { column, found } if found.is_empty() => {
            format!("column {column}: \\x needs two hex digits, and the key ends here")
        }
        EscapeError::BadHex { column, found } => {
            format!("column {column}: \\x needs two hex digits (0-9, a-f), found \"{found}\"")
        }
        EscapeError::UnknownEscape { column, found } => format!(
            "column {column}: \\{found} is not an escape redis-cli knows; write \\\\ for a backslash"
        ),
        EscapeError::TrailingBackslash { column } => format!(
            "column {column}: the key ends with a lone backslash; write \\\\ for a backslash"
        ),
        EscapeError::UnclosedQuote { column, quote } => format!(
            "column {column}: this quote ({quote}) is never closed; end the key with {quote} or write \\{quote} for a quote"
        ),
        EscapeError::TextAfterQuote { column } => format!(
            "column {column}: text after the closing quote; write \\\" for a quote inside the key"
        ),
        EscapeError::NotHex { column, found } => {
            format!("column {column}: {found:?} is not a hex digit")
        }
        EscapeError::UnpairedHexDigit { column } => {
            format!("odd number of hex digits ({column}); each byte needs two")
        }
    }
}

/// Prints the slot of each key, or reports why it has none; true if every key had a slot.
/// `keys` yields, in order, where the key came from (for the message) and the key or its error.
fn answer(keys: impl Iterator<Item = (String, Result<Vec<u8>, EscapeError>)>) -> ExitCode {
    let mut ok = true;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (place, key) in keys {
        match key {
            Ok(key) => {
                let _ = writeln!(out, "{}", key_slot(&key));
            }
            Err(e) => {
                // Flush first so stdout and stderr interleave in input order on a terminal.
                let _ = out.flush();
                eprintln!("keyslot: {place}: {}", describe(&e));
                ok = false;
            }
        }
    }
    let _ = out.flush();
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn args_mode(args: &[String]) -> ExitCode {
    answer(
        args.iter()
            .enumerate()
            .map(|(i, arg)| (format!("argument {}", i + 1), parse_key(arg))),
    )
}

fn hex_mode() -> ExitCode {
    let stdin = io::stdin();
    let mut read_error = None;
    let lines = stdin
        .lock()
        .split(b'\n')
        .map_while(|line| line.map_err(|e| read_error = Some(e)).ok())
        .enumerate()
        .map(|(i, line)| {
            let text = String::from_utf8_lossy(&line);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            (format!("line {}", i + 1), from_hex(text))
        });
    let code = answer(lines);
    if let Some(e) = read_error {
        eprintln!("keyslot: reading stdin: {e}");
        return ExitCode::FAILURE;
    }
    code
}
