//! Slots changing hands by command, as a reshard does it: `CLUSTER SETSLOT <slot> IMPORTING`
//! and `CLUSTER SETSLOT <slot> NODE` (cluster.c `clusterCommand`), and redis-cli's
//! `clusterManagerMoveSlot` for a slot without keys.

use super::node::todo;
use super::sim::Sim;
use super::types::{Process, SLOTS};

/// `CLUSTER SETSLOT`'s refusals; `Display` is Redis's reply text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetSlotRefusal {
    /// "ERR Target node is not a master".
    NotAMaster,
    /// "ERR Invalid or out of range slot".
    BadSlot,
    /// "ERR Unknown node" (an index that names no node).
    UnknownNode,
}

impl std::fmt::Display for SetSlotRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SetSlotRefusal::NotAMaster => "ERR Target node is not a master",
            SetSlotRefusal::BadSlot => "ERR Invalid or out of range slot",
            SetSlotRefusal::UnknownNode => "ERR Unknown node",
        })
    }
}

impl Sim {
    /// `CLUSTER SETSLOT <slot> IMPORTING <from>` sent to node `n`.
    pub fn setslot_importing(
        &mut self,
        n: u32,
        slot: usize,
        from: u32,
    ) -> Result<(), SetSlotRefusal> {
        if slot >= SLOTS {
            return Err(SetSlotRefusal::BadSlot);
        }
        if !self.has(n) || !self.has(from) {
            return Err(SetSlotRefusal::UnknownNode);
        }
        let node = &mut self.nodes[n as usize];
        node.importing.retain(|(s, _)| usize::from(*s) != slot);
        node.importing.push((slot as u16, from));
        Ok(())
    }

    /// `CLUSTER SETSLOT <slot> NODE <owner>` sent to node `n` (a slot without keys): the
    /// owner changes in `n`'s table; a master that gives away its last slot becomes a
    /// replica of the new owner; the importing node bumps its config epoch and tells
    /// everyone with a PONG.
    pub fn setslot_node(&mut self, n: u32, slot: usize, owner: u32) -> Result<(), SetSlotRefusal> {
        self.setslots_node(n, slot..slot + 1, owner)
    }

    /// `CLUSTER SETSLOT <slot> NODE <owner>` for each slot of `slots`, pipelined: the
    /// commands run back to back, so the importing node's PONG broadcasts of the batch
    /// coalesce into one (sent after the last) and the event loop turns once.
    pub fn setslots_node(
        &mut self,
        n: u32,
        slots: std::ops::Range<usize>,
        owner: u32,
    ) -> Result<(), SetSlotRefusal> {
        if slots.end > SLOTS || slots.start >= slots.end {
            return Err(SetSlotRefusal::BadSlot);
        }
        if !self.has(n) || !self.has(owner) {
            return Err(SetSlotRefusal::UnknownNode);
        }
        let mut broadcast = false;
        for slot in slots {
            broadcast |= self.setslot_one(n, slot, owner)?;
        }
        if broadcast {
            self.broadcast_pong(n, false);
        }
        self.nodes[n as usize].todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
        self.before_sleep(n);
        self.wake_if_needed(n);
        Ok(())
    }

    /// One SETSLOT NODE; true when it asks for a PONG broadcast.
    fn setslot_one(&mut self, n: u32, slot: usize, owner: u32) -> Result<bool, SetSlotRefusal> {
        let nu = n as usize;
        if self.nodes[nu].process != Process::Running {
            return Ok(false);
        }
        if self.nodes[nu].peers[owner as usize].is_slave() {
            return Err(SetSlotRefusal::NotAMaster);
        }
        let was_mine = self.nodes[nu].slot_owner[slot] == n;
        self.nodes[nu].set_slot(slot, owner);
        if was_mine
            && owner != n
            && self.nodes[nu].me().numslots == 0
            && self.cfg.allow_replica_migration
        {
            let name = self.nodes[owner as usize].name.clone();
            self.log(
                n,
                '#',
                format!(
                    "Configuration change detected. Reconfiguring myself as a replica of {name}"
                ),
            );
            self.set_master(n, owner);
        }
        let importing = self.nodes[nu]
            .importing
            .iter()
            .position(|(s, _)| usize::from(*s) == slot);
        if owner == n
            && let Some(i) = importing
        {
            if self.bump_epoch_without_consensus(n) {
                self.log(
                    n,
                    '#',
                    format!("configEpoch updated after importing slot {slot}"),
                );
            }
            self.nodes[nu].importing.remove(i);
            return Ok(true);
        }
        Ok(false)
    }

    /// redis-cli's `clusterManagerMoveSlot` for slots without keys: IMPORTING on the target,
    /// then `SETSLOT NODE` on every master (the target first, then the others in port
    /// order), the slots of `slots` as one pipelined batch.
    pub fn move_slots(
        &mut self,
        from: u32,
        to: u32,
        slots: std::ops::Range<usize>,
    ) -> Result<(), SetSlotRefusal> {
        for slot in slots.clone() {
            self.setslot_importing(to, slot, from)?;
        }
        self.setslots_node(to, slots.clone(), to)?;
        let mut masters: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|m| *m != to && self.nodes[*m as usize].is_master())
            .collect();
        masters.sort_by_key(|m| self.nodes[*m as usize].port);
        for m in masters {
            self.setslots_node(m, slots.clone(), to)?;
        }
        Ok(())
    }
}
