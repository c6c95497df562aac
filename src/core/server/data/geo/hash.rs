//! The geohash arithmetic of Redis 7.0.15's `geohash.c` and `geohash_helper.c`: 52-bit
//! interleaved cells, their neighbours, the step a search radius gets, the bounding box and
//! the nine cells a search reads, and distances on Redis's spherical earth.

pub(super) const STEP_MAX: u8 = 26;
pub(super) const LAT_MIN: f64 = -85.051_128_78;
pub(super) const LAT_MAX: f64 = 85.051_128_78;
pub(super) const LONG_MIN: f64 = -180.0;
pub(super) const LONG_MAX: f64 = 180.0;
const EARTH_RADIUS_IN_METERS: f64 = 6_372_797.560_856;
const MERCATOR_MAX: f64 = 20_037_726.37;
const D_R: f64 = std::f64::consts::PI / 180.0;

// ------------------------------------------------------------------------------------------
// geohash.c
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Bits {
    pub(super) bits: u64,
    pub(super) step: u8,
}

impl Bits {
    pub(super) fn is_zero(&self) -> bool {
        self.bits == 0 && self.step == 0
    }
}

#[derive(Clone, Copy, Default)]
pub(super) struct Range {
    pub(super) min: f64,
    pub(super) max: f64,
}

#[derive(Clone, Copy, Default)]
pub(super) struct Area {
    longitude: Range,
    latitude: Range,
}

pub(super) const WGS84: (Range, Range) = (
    Range {
        min: LONG_MIN,
        max: LONG_MAX,
    },
    Range {
        min: LAT_MIN,
        max: LAT_MAX,
    },
);

fn interleave64(xlo: u32, ylo: u32) -> u64 {
    const B: [u64; 5] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
    ];
    const S: [u32; 5] = [1, 2, 4, 8, 16];
    let (mut x, mut y) = (u64::from(xlo), u64::from(ylo));
    for i in (0..5).rev() {
        x = (x | (x << S[i])) & B[i];
        y = (y | (y << S[i])) & B[i];
    }
    x | (y << 1)
}

fn deinterleave64(interleaved: u64) -> u64 {
    const B: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    const S: [u32; 6] = [0, 1, 2, 4, 8, 16];
    let (mut x, mut y) = (interleaved, interleaved >> 1);
    for i in 0..6 {
        x = (x | (x >> S[i])) & B[i];
        y = (y | (y >> S[i])) & B[i];
    }
    x | (y << 32)
}

pub(super) fn encode(
    long_range: Range,
    lat_range: Range,
    longitude: f64,
    latitude: f64,
    step: u8,
) -> Option<Bits> {
    if step > 32 || step == 0 {
        return None;
    }
    if !(LONG_MIN..=LONG_MAX).contains(&longitude) || !(LAT_MIN..=LAT_MAX).contains(&latitude) {
        return None;
    }
    if latitude < lat_range.min
        || latitude > lat_range.max
        || longitude < long_range.min
        || longitude > long_range.max
    {
        return None;
    }
    let mut lat_offset = (latitude - lat_range.min) / (lat_range.max - lat_range.min);
    let mut long_offset = (longitude - long_range.min) / (long_range.max - long_range.min);
    let scale = 1u64.checked_shl(u32::from(step)).unwrap_or(0) as f64;
    lat_offset *= scale;
    long_offset *= scale;
    Some(Bits {
        bits: interleave64(lat_offset as u32, long_offset as u32),
        step,
    })
}

pub(super) fn decode(long_range: Range, lat_range: Range, hash: Bits) -> Option<Area> {
    if hash.is_zero() {
        return None;
    }
    let sep = deinterleave64(hash.bits);
    let lat_scale = lat_range.max - lat_range.min;
    let long_scale = long_range.max - long_range.min;
    let ilato = sep as u32;
    let ilono = (sep >> 32) as u32;
    let div = 1u64.checked_shl(u32::from(hash.step)).unwrap_or(0) as f64;
    Some(Area {
        latitude: Range {
            min: lat_range.min + (f64::from(ilato) * 1.0 / div) * lat_scale,
            max: lat_range.min + ((f64::from(ilato) + 1.0) * 1.0 / div) * lat_scale,
        },
        longitude: Range {
            min: long_range.min + (f64::from(ilono) * 1.0 / div) * long_scale,
            max: long_range.min + ((f64::from(ilono) + 1.0) * 1.0 / div) * long_scale,
        },
    })
}

/// The centre of a 52-bit score's box, clamped (`decodeGeohash`): `[longitude, latitude]`.
pub(super) fn decode_score(score: f64) -> Option<[f64; 2]> {
    // C's `(uint64_t)score` as gcc compiles it on x86-64: `cvttsd2si` below 2^63, else of
    // `score - 2^63` with the top bit flipped; `cvttsd2si` gives 0x8000000000000000 for NaN
    // and anything out of range (Rust's `as` would saturate instead), so 1e300 reads as 0.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let cvttsd2si = |x: f64| {
        if x.is_nan() || !(-TWO_63..TWO_63).contains(&x) {
            i64::MIN
        } else {
            x as i64
        }
    };
    let bits = if score >= TWO_63 {
        cvttsd2si(score - TWO_63) as u64 ^ (1 << 63)
    } else {
        cvttsd2si(score) as u64
    };
    let area = decode(
        WGS84.0,
        WGS84.1,
        Bits {
            bits,
            step: STEP_MAX,
        },
    )?;
    let lon = ((area.longitude.min + area.longitude.max) / 2.0).clamp(LONG_MIN, LONG_MAX);
    let lat = ((area.latitude.min + area.latitude.max) / 2.0).clamp(LAT_MIN, LAT_MAX);
    Some([lon, lat])
}

fn move_x(hash: &mut Bits, d: i8) {
    if d == 0 {
        return;
    }
    let mut x = hash.bits & 0xaaaa_aaaa_aaaa_aaaa;
    let y = hash.bits & 0x5555_5555_5555_5555;
    let shift = 64u32.saturating_sub(u32::from(hash.step) * 2);
    let zz = 0x5555_5555_5555_5555u64.checked_shr(shift).unwrap_or(0);
    if d > 0 {
        x = x.wrapping_add(zz + 1);
    } else {
        x |= zz;
        x = x.wrapping_sub(zz + 1);
    }
    x &= 0xaaaa_aaaa_aaaa_aaaau64.checked_shr(shift).unwrap_or(0);
    hash.bits = x | y;
}

fn move_y(hash: &mut Bits, d: i8) {
    if d == 0 {
        return;
    }
    let x = hash.bits & 0xaaaa_aaaa_aaaa_aaaa;
    let mut y = hash.bits & 0x5555_5555_5555_5555;
    let shift = 64u32.saturating_sub(u32::from(hash.step) * 2);
    let zz = 0xaaaa_aaaa_aaaa_aaaau64.checked_shr(shift).unwrap_or(0);
    if d > 0 {
        y = y.wrapping_add(zz + 1);
    } else {
        y |= zz;
        y = y.wrapping_sub(zz + 1);
    }
    y &= 0x5555_5555_5555_5555u64.checked_shr(shift).unwrap_or(0);
    hash.bits = x | y;
}

/// The eight neighbours in `membersOfAllNeighbors`' order after the centre: north, south,
/// east, west, north-east, north-west, south-east, south-west.
fn neighbors(hash: Bits) -> [Bits; 8] {
    let moved = |dx: i8, dy: i8| {
        let mut h = hash;
        move_x(&mut h, dx);
        move_y(&mut h, dy);
        h
    };
    [
        moved(0, 1),
        moved(0, -1),
        moved(1, 0),
        moved(-1, 0),
        moved(1, 1),
        moved(-1, 1),
        moved(1, -1),
        moved(-1, -1),
    ]
}

// ------------------------------------------------------------------------------------------
// geohash_helper.c
// ------------------------------------------------------------------------------------------

fn deg_rad(a: f64) -> f64 {
    a * D_R
}

fn rad_deg(a: f64) -> f64 {
    a / D_R
}

fn estimate_steps(mut range_meters: f64, lat: f64) -> u8 {
    if range_meters == 0.0 {
        return 26;
    }
    let mut step: i32 = 1;
    while range_meters < MERCATOR_MAX {
        range_meters *= 2.0;
        step += 1;
    }
    step -= 2;
    if !(-66.0..=66.0).contains(&lat) {
        step -= 1;
        if !(-80.0..=80.0).contains(&lat) {
            step -= 1;
        }
    }
    step.clamp(1, 26) as u8
}

#[derive(Clone, Copy)]
pub(super) enum ShapeKind {
    Radius(f64),
    Box { width: f64, height: f64 },
}

#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) xy: [f64; 2],
    pub(super) kind: ShapeKind,
    pub(super) conversion: f64,
}

fn bounding_box(shape: &Shape) -> [f64; 4] {
    let [longitude, latitude] = shape.xy;
    let (height, width) = match shape.kind {
        ShapeKind::Radius(r) => (shape.conversion * r, shape.conversion * r),
        ShapeKind::Box { width, height } => (
            shape.conversion * (height / 2.0),
            shape.conversion * (width / 2.0),
        ),
    };
    let lat_delta = rad_deg(height / EARTH_RADIUS_IN_METERS);
    let long_delta_top =
        rad_deg(width / EARTH_RADIUS_IN_METERS / deg_rad(latitude + lat_delta).cos());
    let long_delta_bottom =
        rad_deg(width / EARTH_RADIUS_IN_METERS / deg_rad(latitude - lat_delta).cos());
    let south = latitude < 0.0;
    [
        if south {
            longitude - long_delta_bottom
        } else {
            longitude - long_delta_top
        },
        latitude - lat_delta,
        if south {
            longitude + long_delta_bottom
        } else {
            longitude + long_delta_top
        },
        latitude + lat_delta,
    ]
}

/// `geohashCalculateAreasByShapeWGS84`: the centre box and its neighbours to search (a zero
/// hash for a neighbour left out).
pub(super) fn areas(shape: &Shape) -> [Bits; 9] {
    let [min_lon, min_lat, max_lon, max_lat] = bounding_box(shape);
    let [longitude, latitude] = shape.xy;
    let radius_meters = match shape.kind {
        ShapeKind::Radius(r) => r,
        ShapeKind::Box { width, height } => {
            ((width / 2.0) * (width / 2.0) + (height / 2.0) * (height / 2.0)).sqrt()
        }
    } * shape.conversion;
    let mut steps = estimate_steps(radius_meters, latitude);
    let (lr, la) = WGS84;
    let mut hash = encode(lr, la, longitude, latitude, steps).unwrap_or_default();
    let mut nb = neighbors(hash);
    let mut area = decode(lr, la, hash).unwrap_or_default();
    let dec = |h: Bits| decode(lr, la, h).unwrap_or_default();
    let (north, south, east, west) = (dec(nb[0]), dec(nb[1]), dec(nb[2]), dec(nb[3]));
    let decrease = north.latitude.max < max_lat
        || south.latitude.min > min_lat
        || east.longitude.max < max_lon
        || west.longitude.min > min_lon;
    if steps > 1 && decrease {
        steps -= 1;
        hash = encode(lr, la, longitude, latitude, steps).unwrap_or_default();
        nb = neighbors(hash);
        area = decode(lr, la, hash).unwrap_or_default();
    }
    // nb: [north, south, east, west, north_east, north_west, south_east, south_west]
    if steps >= 2 {
        let zero = Bits::default();
        if area.latitude.min < min_lat {
            nb[1] = zero;
            nb[7] = zero;
            nb[6] = zero;
        }
        if area.latitude.max > max_lat {
            nb[0] = zero;
            nb[4] = zero;
            nb[5] = zero;
        }
        if area.longitude.min < min_lon {
            nb[3] = zero;
            nb[7] = zero;
            nb[5] = zero;
        }
        if area.longitude.max > max_lon {
            nb[2] = zero;
            nb[6] = zero;
            nb[4] = zero;
        }
    }
    [hash, nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], nb[6], nb[7]]
}

pub(super) fn align52(hash: Bits) -> u64 {
    hash.bits
        .checked_shl(52u32.saturating_sub(u32::from(hash.step) * 2))
        .unwrap_or(0)
}

fn lat_distance(lat1d: f64, lat2d: f64) -> f64 {
    EARTH_RADIUS_IN_METERS * (deg_rad(lat2d) - deg_rad(lat1d)).abs()
}

/// `geohashGetDistance` (haversine on Redis's earth radius).
pub(super) fn distance(lon1d: f64, lat1d: f64, lon2d: f64, lat2d: f64) -> f64 {
    let lon1r = deg_rad(lon1d);
    let lon2r = deg_rad(lon2d);
    let v = ((lon2r - lon1r) / 2.0).sin();
    if v == 0.0 {
        return lat_distance(lat1d, lat2d);
    }
    let lat1r = deg_rad(lat1d);
    let lat2r = deg_rad(lat2d);
    let u = ((lat2r - lat1r) / 2.0).sin();
    let a = u * u + lat1r.cos() * lat2r.cos() * v * v;
    2.0 * EARTH_RADIUS_IN_METERS * a.sqrt().asin()
}

/// `geoWithinShape`: the decoded point and its distance from the centre, if inside.
pub(super) fn within(shape: &Shape, score: f64) -> Option<([f64; 2], f64)> {
    let xy = decode_score(score)?;
    let [x1, y1] = shape.xy;
    let [x2, y2] = xy;
    match shape.kind {
        ShapeKind::Radius(r) => {
            let d = distance(x1, y1, x2, y2);
            (d <= r * shape.conversion).then_some((xy, d))
        }
        ShapeKind::Box { width, height } => {
            let (w, h) = (width * shape.conversion, height * shape.conversion);
            if lat_distance(y2, y1) > h / 2.0 {
                return None;
            }
            if distance(x2, y2, x1, y2) > w / 2.0 {
                return None;
            }
            Some((xy, distance(x1, y1, x2, y2)))
        }
    }
}
