//! A tiny RESP2 client over `std::net::TcpStream`: commands out as arrays of bulk strings,
//! each reply read back as its raw bytes (and parsed into [`Value`] for the comparisons that
//! are not byte for byte).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One parsed RESP2 reply.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// `+…`
    Status(Vec<u8>),
    /// `-…`
    Error(Vec<u8>),
    /// `:…`
    Int(i64),
    /// `$…` (`None`: `$-1`).
    Bulk(Option<Vec<u8>>),
    /// `*…` (`None`: `*-1`).
    Array(Option<Vec<Value>>),
}

/// A connection to one node.
pub struct Conn {
    addr: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

/// A command as RESP2 sends it: an array of bulk strings.
pub fn encode_command(args: &[Vec<u8>]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

impl Conn {
    /// Connects to `addr` (`127.0.0.1:7000`).
    pub fn open(addr: &str) -> Result<Conn, String> {
        let stream =
            TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let writer = stream.try_clone().map_err(|e| e.to_string())?;
        Ok(Conn {
            addr: addr.to_owned(),
            reader: BufReader::new(stream),
            writer,
        })
    }

    /// Sends `args` and returns the reply's raw bytes.
    pub fn call(&mut self, args: &[Vec<u8>]) -> Vec<u8> {
        self.writer
            .write_all(&encode_command(args))
            .unwrap_or_else(|e| panic!("write to {}: {e}", self.addr));
        let mut raw = Vec::new();
        read_reply(&mut self.reader, &mut raw)
            .unwrap_or_else(|e| panic!("reading a reply from {}: {e}", self.addr));
        raw
    }

    /// Sends words (`["CLUSTER", "NODES"]`) and returns the parsed reply.
    pub fn call_str(&mut self, words: &[&str]) -> Value {
        let args: Vec<Vec<u8>> = words.iter().map(|w| w.as_bytes().to_vec()).collect();
        let raw = self.call(&args);
        parse(&raw).unwrap_or_else(|| panic!("unparsable reply from {}: {raw:?}", self.addr))
    }
}

fn read_line(r: &mut impl BufRead, raw: &mut Vec<u8>) -> Result<Vec<u8>, String> {
    let mut line = Vec::new();
    let n = r.read_until(b'\n', &mut line).map_err(|e| e.to_string())?;
    if n == 0 || !line.ends_with(b"\r\n") {
        return Err(format!("connection closed or bad line: {line:?}"));
    }
    raw.extend_from_slice(&line);
    line.truncate(line.len() - 2);
    Ok(line)
}

fn number(bytes: &[u8]) -> Result<i64, String> {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not a number: {bytes:?}"))
}

/// Reads one whole reply from `r`, appending its bytes to `raw`.
fn read_reply(r: &mut impl BufRead, raw: &mut Vec<u8>) -> Result<(), String> {
    let line = read_line(r, raw)?;
    let (&kind, rest) = line.split_first().ok_or("empty reply line")?;
    match kind {
        b'+' | b'-' | b':' => Ok(()),
        b'$' => {
            let len = number(rest)?;
            if len >= 0 {
                let mut body = vec![0; len as usize + 2];
                r.read_exact(&mut body).map_err(|e| e.to_string())?;
                raw.extend_from_slice(&body);
            }
            Ok(())
        }
        b'*' => {
            for _ in 0..number(rest)?.max(0) {
                read_reply(r, raw)?;
            }
            Ok(())
        }
        other => Err(format!("unknown reply type {:?}", other as char)),
    }
}

/// Parses one complete reply (and nothing after it).
pub fn parse(raw: &[u8]) -> Option<Value> {
    let (value, rest) = parse_at(raw)?;
    rest.is_empty().then_some(value)
}

fn parse_at(raw: &[u8]) -> Option<(Value, &[u8])> {
    let end = raw.windows(2).position(|w| w == b"\r\n")?;
    let (line, rest) = (raw.get(1..end)?, raw.get(end + 2..)?);
    match raw.first()? {
        b'+' => Some((Value::Status(line.to_vec()), rest)),
        b'-' => Some((Value::Error(line.to_vec()), rest)),
        b':' => Some((Value::Int(number(line).ok()?), rest)),
        b'$' => {
            let len = number(line).ok()?;
            if len < 0 {
                return Some((Value::Bulk(None), rest));
            }
            let len = len as usize;
            let body = rest.get(..len)?;
            (rest.get(len..len + 2)? == b"\r\n").then(|| {
                (
                    Value::Bulk(Some(body.to_vec())),
                    rest.get(len + 2..).unwrap_or(&[]),
                )
            })
        }
        b'*' => {
            let n = number(line).ok()?;
            if n < 0 {
                return Some((Value::Array(None), rest));
            }
            let mut items = Vec::new();
            let mut rest = rest;
            for _ in 0..n {
                let (item, r) = parse_at(rest)?;
                items.push(item);
                rest = r;
            }
            Some((Value::Array(Some(items)), rest))
        }
        _ => None,
    }
}

/// A bulk or status reply's bytes as text (for the harness's own control replies).
pub fn text(v: &Value) -> String {
    match v {
        Value::Bulk(Some(b)) | Value::Status(b) | Value::Error(b) => {
            String::from_utf8_lossy(b).into_owned()
        }
        Value::Int(n) => n.to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trips_nested_arrays() {
        let raw = b"*3\r\n$1\r\na\r\n$-1\r\n*1\r\n:7\r\n";
        assert_eq!(
            parse(raw),
            Some(Value::Array(Some(vec![
                Value::Bulk(Some(b"a".to_vec())),
                Value::Bulk(None),
                Value::Array(Some(vec![Value::Int(7)])),
            ])))
        );
        assert_eq!(parse(b"$3\r\nab\r\n"), None);
    }
}
