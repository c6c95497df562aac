//! The string commands the engine runs that need more than a line (SET and its options,
//! INCR/DECR…, APPEND, MSET/MSETNX, RENAME/RENAMENX), each as Redis 7.0 answers it.

use super::command::{parse_i64, CommandError, CommandInfo};
use super::reply::{ErrorReply, NotRun, Reply};
use super::Cluster;

impl Cluster {
    /// INCR, DECR, INCRBY, DECRBY: `by` is the step, or the error its argument gave.
    pub(super) fn incr_by(
        &mut self,
        node: usize,
        key: &[u8],
        by: Result<i64, ErrorReply>,
    ) -> Reply {
        let by = match by {
            Ok(by) => by,
            Err(e) => return e.into(),
        };
        let old = match self.get(node, key) {
            None => 0,
            Some(v) => match parse_i64(v) {
                Some(n) => n,
                None => return ErrorReply::NotInteger.into(),
            },
        };
        let Some(new) = old.checked_add(by) else {
            return ErrorReply::Overflow.into();
        };
        self.set(node, key, new.to_string().into_bytes());
        Reply::Int(new)
    }

    pub(super) fn append(&mut self, node: usize, key: &[u8], tail: &[u8]) -> Reply {
        let mut value = self.get(node, key).map(<[u8]>::to_vec).unwrap_or_default();
        value.extend_from_slice(tail);
        let len = value.len() as i64;
        self.set(node, key, value);
        Reply::Int(len)
    }

    /// MSET (`nx` false) and MSETNX.
    pub(super) fn mset(
        &mut self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        nx: bool,
    ) -> Reply {
        if args.len().is_multiple_of(2) {
            return ErrorReply::Command(CommandError::WrongArity { command: info.name }).into();
        }
        let pairs: Vec<(&[u8], &[u8])> = args
            .get(1..)
            .unwrap_or(&[])
            .chunks_exact(2)
            .filter_map(|p| match p {
                [k, v] => Some((k.as_slice(), v.as_slice())),
                _ => None,
            })
            .collect();
        if nx && pairs.iter().any(|(k, _)| self.get(node, k).is_some()) {
            return Reply::Int(0);
        }
        for (k, v) in pairs {
            self.set(node, k, v.to_vec());
        }
        if nx {
            Reply::Int(1)
        } else {
            Reply::Ok
        }
    }

    /// RENAME (`nx` false) and RENAMENX.
    pub(super) fn rename(&mut self, node: usize, key: &[u8], dest: &[u8], nx: bool) -> Reply {
        let Some(value) = self.get(node, key).map(<[u8]>::to_vec) else {
            return ErrorReply::NoSuchKey.into();
        };
        if key == dest {
            return if nx { Reply::Int(0) } else { Reply::Ok };
        }
        if self.get(node, dest).is_some() {
            if nx {
                return Reply::Int(0);
            }
            self.del(node, dest);
        }
        self.set(node, dest, value);
        self.del(node, key);
        if nx {
            Reply::Int(1)
        } else {
            Reply::Ok
        }
    }

    /// SET key value [NX|XX] [GET] [EX s|PX ms|EXAT t|PXAT t|KEEPTTL], parsed as Redis 7.0 does.
    pub(super) fn set_command(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let (mut nx, mut xx, mut get, mut keepttl) = (false, false, false, false);
        let mut expire: Option<&[u8]> = None;
        let mut j = 3;
        while let Some(opt) = args.get(j) {
            let next = args.get(j + 1);
            let is = |word: &[u8]| opt.eq_ignore_ascii_case(word);
            if is(b"nx") && !xx {
                nx = true;
            } else if is(b"xx") && !nx {
                xx = true;
            } else if is(b"get") {
                get = true;
            } else if is(b"keepttl") && expire.is_none() {
                keepttl = true;
            } else if (is(b"ex") || is(b"px") || is(b"exat") || is(b"pxat"))
                && !keepttl
                && expire.is_none()
                && next.is_some()
            {
                expire = next.map(Vec::as_slice);
                j += 1;
            } else {
                return ErrorReply::Syntax.into();
            }
            j += 1;
        }
        if let Some(value) = expire {
            return match parse_i64(value) {
                None => ErrorReply::NotInteger.into(),
                Some(n) if n <= 0 => ErrorReply::InvalidExpire { command: "set" }.into(),
                Some(_) => NotRun::NoClock {
                    name: "set".to_owned(),
                }
                .into(),
            };
        }
        let key = args.get(1).map(Vec::as_slice).unwrap_or(&[]);
        let old = self.get(node, key).map(<[u8]>::to_vec);
        let found = old.is_some();
        if (nx && found) || (xx && !found) {
            return Reply::Bulk(if get { old } else { None });
        }
        self.set(node, key, args.get(2).cloned().unwrap_or_default());
        if get {
            Reply::Bulk(old)
        } else {
            Reply::Ok
        }
    }
}
