//! A sample of keys back to back in one buffer (never one `String` per key), and numbered keys built in one reused buffer.

pub use slotscope_kernel::push_decimal;

/// Calls `f` with `prefix0`, `prefix1`, …, `prefix{n-1}` (e.g. `key:0` … `key:99999`), built
/// one after another in a single reused buffer.
pub fn for_each_numbered_key(prefix: &[u8], n: u32, mut f: impl FnMut(&[u8])) {
    let mut buf = Vec::with_capacity(prefix.len() + 10);
    for i in 0..n {
        buf.clear();
        buf.extend_from_slice(prefix);
        push_decimal(&mut buf, i.into());
        f(&buf);
    }
}

/// A sample of keys stored back to back in one buffer: two allocations for any number of
/// keys, and `&KeySample` iterates as `&[u8]`, which is what the `*_outcome` functions take.
///
/// ```
/// use slotscope::core::workload::KeySample;
/// let keys = KeySample::numbered(b"key:", 3);
/// assert_eq!(keys.iter().collect::<Vec<_>>(), [&b"key:0"[..], b"key:1", b"key:2"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeySample {
    bytes: Vec<u8>,
    /// `ends[i]` is where key `i` ends in `bytes` (it starts where key `i - 1` ends).
    ends: Vec<usize>,
}

impl KeySample {
    /// An empty sample.
    pub fn new() -> Self {
        KeySample::default()
    }

    /// `prefix0` … `prefix{n-1}`: `KeySample::numbered(b"key:", 100_000)` is the fixtures'
    /// `no_tag_key_i_100k` experiment.
    pub fn numbered(prefix: &[u8], n: u32) -> Self {
        KeySample::from_fn(n, |i, buf| {
            buf.extend_from_slice(prefix);
            push_decimal(buf, i.into());
        })
    }

    /// `n` keys, key `i` being whatever `write(i, buf)` appends to `buf` (which arrives
    /// positioned at the end of the previous key; [`push_decimal`] helps). For example
    /// `{user1:<i%64>}:item:<i>`:
    ///
    /// ```
    /// use slotscope::core::workload::{push_decimal, KeySample};
    /// let keys = KeySample::from_fn(100, |i, buf| {
    ///     buf.extend_from_slice(b"{user1:");
    ///     push_decimal(buf, (i % 64).into());
    ///     buf.extend_from_slice(b"}:item:");
    ///     push_decimal(buf, i.into());
    /// });
    /// assert_eq!(keys.get(65), Some(&b"{user1:1}:item:65"[..]));
    /// ```
    pub fn from_fn(n: u32, mut write: impl FnMut(u32, &mut Vec<u8>)) -> Self {
        let mut sample = KeySample::with_capacity(n as usize);
        for i in 0..n {
            sample.push_with(|buf| write(i, buf));
        }
        sample
    }

    /// An empty sample with room for `n` keys' ends.
    pub fn with_capacity(n: usize) -> Self {
        KeySample {
            bytes: Vec::new(),
            ends: Vec::with_capacity(n),
        }
    }

    /// Appends one key, written by `write` at the end of the buffer.
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.bytes);
        self.ends.push(self.bytes.len());
    }

    /// Appends one key.
    pub fn push(&mut self, key: &[u8]) {
        self.bytes.extend_from_slice(key);
        self.ends.push(self.bytes.len());
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Key `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = match i.checked_sub(1) {
            Some(prev) => *self.ends.get(prev)?,
            None => 0,
        };
        self.bytes.get(start..end)
    }

    /// The keys, in order.
    pub fn iter(&self) -> Keys<'_> {
        Keys {
            bytes: &self.bytes,
            ends: self.ends.iter(),
            start: 0,
        }
    }
}

impl<'a> IntoIterator for &'a KeySample {
    type Item = &'a [u8];
    type IntoIter = Keys<'a>;

    fn into_iter(self) -> Keys<'a> {
        self.iter()
    }
}

/// The keys of a [`KeySample`], in order.
#[derive(Clone, Debug)]
pub struct Keys<'a> {
    bytes: &'a [u8],
    ends: core::slice::Iter<'a, usize>,
    start: usize,
}

impl<'a> Iterator for Keys<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let end = *self.ends.next()?;
        let key = self.bytes.get(self.start..end)?;
        self.start = end;
        Some(key)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for Keys<'_> {}
