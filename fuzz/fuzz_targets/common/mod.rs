//! Shared by the fuzz targets: the few slot maps the planner and simulator targets run on,
//! built once per process.

use slotscope::core::{Master, Replica, SlotMap};
use std::sync::OnceLock;

/// Node ids of the fixtures' masters 7001 and 7002 (transcript 07).
const ID_7001: &str = "f7c6b5d608aefdd517b33641eb638ce56252d0b4";
const ID_7002: &str = "44084a172411812451c56a0a3330ec6daa733083";

/// Four maps, picked by a byte of the input:
/// 0. the fixtures' cluster (3 masters, 3 replicas, every slot served);
/// 1. the same with slot 5712 open (7001 migrating to 7002, 7002 importing), as in transcript
///    07, plus an empty master 127.0.0.1:7006 with a replica 127.0.0.1:7007;
/// 2. `--cluster create` of 4 masters on 7100.. with slots 0-99 unowned (cluster down);
/// 3. 5 masters on 10.0.0.1:6379.. with the last one flagged `fail` (cluster down).
pub fn maps() -> &'static [SlotMap; 4] {
    static MAPS: OnceLock<[SlotMap; 4]> = OnceLock::new();
    MAPS.get_or_init(|| {
        let fixture = SlotMap::fixture_cluster();

        let mut lab = fixture.clone();
        if let Some(m) = lab.master_mut(1) {
            m.migrating.push((5712, ID_7002.to_owned()));
        }
        if let Some(m) = lab.master_mut(2) {
            m.importing.push((5712, ID_7001.to_owned()));
        }
        let mut extra = Master::new("127.0.0.1:7006", "6a".repeat(20));
        extra
            .replicas
            .push(Replica::new("127.0.0.1:7007", "7b".repeat(20)));
        lab.add_master(extra).expect("add empty master");

        let mut gaps = SlotMap::created(4, "127.0.0.1", 7100).expect("created(4)");
        for slot in 0..100 {
            gaps.assign(slot, None);
        }

        let mut failed = SlotMap::created(5, "10.0.0.1", 6379).expect("created(5)");
        if let Some(m) = failed.master_mut(4) {
            m.flags.push("fail".to_owned());
        }

        [fixture, lab, gaps, failed]
    })
}

/// Every node address of `map` (masters, then their replicas), plus one address outside it.
pub fn node_addrs(map: &SlotMap) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in map.masters() {
        out.push(m.addr.clone());
        out.extend(m.replicas.iter().map(|r| r.addr.clone()));
    }
    out.push("127.0.0.1:6999".to_owned());
    out
}
