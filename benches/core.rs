//! Criterion benches of the slot core, each beside its baseline: key → slot for a million short
//! keys, CRC16 throughput on 1 KB keys, tag generation and the fan-out planner.
//!
//! Run with `cargo bench --bench core`. Native only: on wasm32 this is an empty `main` so that
//! `cargo clippy --all-targets --target wasm32-unknown-unknown` still builds every target.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{black_box, BenchmarkId, Criterion, Throughput};
    use slotscope::core::cluster::topology::SlotMap;
    use slotscope::core::key::crc16::{crc16, crc16_bytewise};
    use slotscope::core::key::slot::{key_slot, key_slots_into};
    use slotscope::core::workload::tags::generate_tags;
    use slotscope::core::workload::{plan, SplitMix64};
    use slotscope::core::workload::{push_decimal, KeySample};
    use std::time::Duration;

    const N_SHORT: u32 = 1_000_000;

    /// One way to get a key's slot.
    type SlotFn = fn(&[u8]) -> u16;

    /// A million keys, half `user:{<n>}:profile` and half `key:<n>`, numbers drawn from a
    /// fixed seed, packed as the page's batch path packs them.
    fn short_keys() -> (Vec<u8>, Vec<u32>) {
        let mut rng = SplitMix64::new(0x5107_5c09e);
        let mut buf = Vec::with_capacity(N_SHORT as usize * 20);
        let mut offsets = Vec::with_capacity(N_SHORT as usize + 1);
        offsets.push(0);
        for i in 0..N_SHORT {
            let n = rng.below(1_000_000);
            if i.is_multiple_of(2) {
                buf.extend_from_slice(b"user:{");
                push_decimal(&mut buf, n);
                buf.extend_from_slice(b"}:profile");
            } else {
                buf.extend_from_slice(b"key:");
                push_decimal(&mut buf, n);
            }
            offsets.push(buf.len() as u32);
        }
        (buf, offsets)
    }

    /// The hash tag the way client libraries commonly find it (redis-rs `get_hashtag`):
    /// `{`, then `}` in the rest, and the whole key otherwise.
    fn naive_hashed_part(key: &[u8]) -> &[u8] {
        let Some(open) = key.iter().position(|&b| b == b'{') else {
            return key;
        };
        match key[open + 1..].iter().position(|&b| b == b'}') {
            Some(0) | None => key,
            Some(close) => &key[open + 1..open + 1 + close],
        }
    }

    fn crc16_crate_slot(key: &[u8]) -> u16 {
        crc16::State::<crc16::XMODEM>::calculate(naive_hashed_part(key)) & 0x3FFF
    }

    fn bytewise_slot(key: &[u8]) -> u16 {
        crc16_bytewise(naive_hashed_part(key)) & 0x3FFF
    }

    /// Slots of every packed key through `slot_of`, one call per key.
    fn each_key(buf: &[u8], offsets: &[u32], out: &mut [u16], slot_of: SlotFn) {
        for (pair, slot) in offsets.windows(2).zip(out.iter_mut()) {
            *slot = slot_of(&buf[pair[0] as usize..pair[1] as usize]);
        }
    }

    fn short_key_slots(c: &mut Criterion) {
        let (buf, offsets) = short_keys();
        let mut out = vec![0u16; N_SHORT as usize];
        // All four agree before anything is timed.
        let mut check = vec![0u16; N_SHORT as usize];
        key_slots_into(&buf, &offsets, &mut out);
        for f in [
            key_slot as fn(&[u8]) -> u16,
            crc16_crate_slot,
            bytewise_slot,
        ] {
            each_key(&buf, &offsets, &mut check, f);
            assert_eq!(out, check);
        }

        let mut g = c.benchmark_group("key_slot_1M_short_keys");
        g.throughput(Throughput::Elements(u64::from(N_SHORT)));
        g.sample_size(20);
        g.measurement_time(Duration::from_secs(4));
        let cases: [(&str, SlotFn); 3] = [
            ("slotscope_key_slot", key_slot),
            ("crc16_crate_xmodem", crc16_crate_slot),
            ("bytewise_table", bytewise_slot),
        ];
        for (name, f) in cases {
            g.bench_function(name, |b| {
                b.iter(|| each_key(black_box(&buf), &offsets, &mut out, f))
            });
        }
        g.bench_function("slotscope_key_slots_into", |b| {
            b.iter(|| key_slots_into(black_box(&buf), &offsets, &mut out))
        });
        g.finish();
    }

    fn crc_1kb(c: &mut Criterion) {
        let mut rng = SplitMix64::new(1024);
        // Random bytes without braces, so key_slot hashes the whole key.
        let key: Vec<u8> = (0..1024)
            .map(|_| match rng.next_u64() as u8 {
                b'{' | b'}' => b'x',
                b => b,
            })
            .collect();
        assert_eq!(crc16(&key), crc16_bytewise(&key));
        assert_eq!(crc16(&key), crc16::State::<crc16::XMODEM>::calculate(&key));

        let mut g = c.benchmark_group("crc16_1KB_key");
        g.throughput(Throughput::Bytes(key.len() as u64));
        g.measurement_time(Duration::from_secs(3));
        g.bench_function("slotscope_sliced16", |b| b.iter(|| crc16(black_box(&key))));
        g.bench_function("crc16_crate_xmodem", |b| {
            b.iter(|| crc16::State::<crc16::XMODEM>::calculate(black_box(&key)))
        });
        g.bench_function("bytewise_table", |b| {
            b.iter(|| crc16_bytewise(black_box(&key)))
        });
        // The whole key → slot path (no tag, so the scan reads all 1024 bytes too).
        g.bench_function("slotscope_key_slot", |b| {
            b.iter(|| key_slot(black_box(&key)))
        });
        g.bench_function("crc16_crate_key_slot", |b| {
            b.iter(|| crc16_crate_slot(black_box(&key)))
        });
        g.finish();
    }

    fn tags(c: &mut Criterion) {
        let map = SlotMap::created(1000, "10.0.0.1", 7000).unwrap();
        let mut g = c.benchmark_group("generate_tags");
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(3));
        g.bench_function("1000_masters_x_16", |b| {
            b.iter(|| {
                let set = generate_tags("routing:v1:%d", 16, black_box(&map), 100_000_000).unwrap();
                assert_eq!(set.tags.len(), 16_000);
                set
            })
        });
        g.finish();
    }

    fn plans(c: &mut Criterion) {
        let map = SlotMap::fixture_cluster();
        let mut g = c.benchmark_group("plan_1M_keys");
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(5));
        g.throughput(Throughput::Elements(1_000_000));
        let samples = [
            ("key:<i>", KeySample::numbered(b"key:", 1_000_000)),
            (
                "{user1:<i%64>}:item:<i>",
                KeySample::from_fn(1_000_000, |i, buf| {
                    buf.extend_from_slice(b"{user1:");
                    push_decimal(buf, (i % 64).into());
                    buf.extend_from_slice(b"}:item:");
                    push_decimal(buf, i.into());
                }),
            ),
        ];
        for (name, keys) in &samples {
            g.bench_with_input(BenchmarkId::from_parameter(name), keys, |b, keys| {
                b.iter(|| plan(keys, black_box(&map)))
            });
        }
        g.finish();
    }

    pub fn main() {
        let mut c = Criterion::default()
            .warm_up_time(Duration::from_secs(1))
            .configure_from_args();
        short_key_slots(&mut c);
        crc_1kb(&mut c);
        tags(&mut c);
        plans(&mut c);
        c.final_summary();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
