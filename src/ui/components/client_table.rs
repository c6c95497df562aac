//! The table of client libraries beside the redirections player: what each of the six does on
//! MOVED, ASK and TRYAGAIN, its redirect limit and what it does with keys in several slots,
//! built from the core's behaviour table (`core::client::library`) with each source cited.

use crate::core::client::library::{
    Behaviour, CrossSlotOther, OnMoved, OnTryAgain, RefreshFrom, RetryAt,
};
use crate::core::client::LIBRARIES;
use crate::ui::messages::fill;
use crate::ui::narration::{delay_text, refresh_command, use_narration_text, NarrationText};
use yew::prelude::*;

/// One library's row, in `t`'s language: MOVED, ASK, TRYAGAIN, limit, keys across slots.
pub fn row_cells(b: &Behaviour, t: &NarrationText) -> [String; 5] {
    let w = &t.table;
    let from = match b.refresh.from {
        RefreshFrom::Random => w.from_random,
        RefreshFrom::Answering => w.from_answering,
        RefreshFrom::Startup => w.from_startup,
        RefreshFrom::Every => w.from_every,
    };
    let when = if b.refresh.background {
        w.background
    } else {
        w.before
    };
    let refresh = fill(
        w.refresh,
        &[&refresh_command(b.refresh.command), &from, &when],
    );
    let moved = match b.on_moved {
        OnMoved::PatchAndRefresh => fill(w.moved_patch_refresh, &[&refresh]),
        OnMoved::Refresh => fill(w.moved_refresh, &[&refresh]),
        OnMoved::PatchOrEveryNthRefresh { every } => fill(w.moved_patch_nth, &[&every, &refresh]),
    };
    let ask = if b.refresh_on_ask {
        w.ask_refresh
    } else {
        w.ask
    }
    .to_string();
    let tryagain = match b.on_tryagain {
        OnTryAgain::ReturnError => w.tryagain_error.to_string(),
        OnTryAgain::Retry { at, delay } => {
            let at = match at {
                RetryAt::SlotTable => w.at_table,
                RetryAt::SameNode => w.at_same,
                RetryAt::RandomMaster => w.at_random,
            };
            fill(w.tryagain_retry, &[&at, &delay_text(delay, t)])
        }
    };
    let (option, value) = b.limit_option;
    let limit = fill(w.limit, &[&option, &value, &b.max_redirects]);
    let others = match b.cross_slot.others {
        CrossSlotOther::Sent if b.cross_slot.splits.is_empty() => w.all_sent.to_string(),
        CrossSlotOther::Sent => w.others_sent.to_string(),
        CrossSlotOther::Refused {
            exception,
            message,
            with_command,
        } => {
            let message = if with_command {
                format!("MGET - {message}")
            } else {
                message.to_string()
            };
            fill(w.others_refused, &[&exception, &message])
        }
    };
    let cross = if b.cross_slot.splits.is_empty() {
        others
    } else {
        format!(
            "{}; {}",
            fill(w.splits, &[&b.cross_slot.splits.join(" ")]),
            others
        )
    };
    [moved, ask, tryagain, limit, cross]
}

/// The files a library's findings come from, each once, in the order first cited.
pub fn source_files(b: &Behaviour) -> Vec<&'static str> {
    let mut files: Vec<&'static str> = Vec::new();
    for s in &b.sources {
        if !files.contains(&s.file) {
            files.push(s.file);
        }
    }
    files
}

/// The table.
#[function_component(ClientTable)]
pub fn client_table() -> Html {
    let t = use_narration_text();
    let w = &t.table;
    html! {
        <div class="redir__clients" data-testid="client-table">
            <h3 class="lab__title">{ w.title }</h3>
            <p class="section-help">{ w.help }</p>
            <div class="table-scroll" tabindex="0" role="group" aria-label={w.title}>
                <table>
                    <thead><tr>{ for w.heads.iter().map(|h| html! { <th scope="col">{ *h }</th> }) }</tr></thead>
                    <tbody>
                        { for LIBRARIES.iter().map(|l| {
                            let b = l.behaviour();
                            let cells = row_cells(b, t);
                            html! {
                                <tr data-library={l.id()} data-max-redirects={b.max_redirects.to_string()}>
                                    <th scope="row" class="mono">{ format!("{} {}", b.name, b.tag) }</th>
                                    // Each cell names its column: on a phone the header row is hidden.
                                    { for cells.into_iter().zip(w.heads.iter().skip(1)).map(|(c, h)| html! { <td data-label={*h}>{ c }</td> }) }
                                    <td class="mono" data-label={w.heads.last().copied().unwrap_or_default()}>
                                        { format!("{}@{}: ", b.sources[0].repo, b.tag) }
                                        { source_files(b).join(", ") }
                                    </td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::narration::{EN, ZH};

    /// Every row is worded in both languages, with no hole left, the numbers and names kept.
    #[test]
    fn every_library_row_reads_in_both_languages() {
        for l in LIBRARIES {
            let b = l.behaviour();
            let en = row_cells(b, &EN);
            let zh = row_cells(b, &ZH);
            for (e, z) in en.iter().zip(&zh) {
                assert!(
                    !e.contains("{0}") && !z.contains("{0}") && !z.contains("{1}"),
                    "{e} / {z}"
                );
                assert_ne!(e, z);
            }
            let limit = b.max_redirects.to_string();
            assert!(en[3].contains(&limit) && zh[3].contains(&limit));
            assert!(en[3].contains(b.limit_option.0) && zh[3].contains(b.limit_option.0));
            assert!(!source_files(b).is_empty());
        }
        // The numbers the sources give (recorded from the libraries' code, see library.rs).
        let io = row_cells(crate::core::client::ClientLibrary::Ioredis.behaviour(), &EN);
        assert!(io[2].contains("100 ms"), "{}", io[2]);
        assert!(io[0].contains("CLUSTER SLOTS"), "{}", io[0]);
        let lettuce = row_cells(crate::core::client::ClientLibrary::Lettuce.behaviour(), &EN);
        assert!(lettuce[0].contains("CLUSTER NODES"), "{}", lettuce[0]);
        assert!(lettuce[4].contains("MGET MSET"), "{}", lettuce[4]);
    }
}
