//! An entry list's players matched: to each other (nobody twice in the list), to the registry
//! (by id, else by name: a known player is entered as the registry's player, never registered
//! twice) and to the division (nobody entered twice).

use super::{EntryList, Field};
use crate::event::player::{PlayerId, PlayerInfo};
use crate::event::state::{DivisionId, Tournament};
use std::collections::HashMap;

/// A name as compared: lower case (names are already trimmed, their spaces single).
fn folded(name: &str) -> String {
    name.to_lowercase()
}

/// The ids a federation-ids text holds ("ACF 1234, FMJD 77"), each folded.
fn ids(text: &str) -> Vec<String> {
    text.split([',', ';'])
        .map(|t| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// True when two ids are the same: equal, or one is a bare number the other ends with
/// ("1234" and "ACF 1234").
fn same_id(a: &str, b: &str) -> bool {
    let bare = |t: &str| !t.contains(' ');
    a == b || ((bare(a) || bare(b)) && a.rsplit(' ').next() == b.rsplit(' ').next())
}

/// True when two id texts share an id.
fn share_id(a: &[String], b: &[String]) -> bool {
    a.iter().any(|x| b.iter().any(|y| same_id(x, y)))
}

/// The list's players matched, each problem reported on its line.
pub(super) fn match_players(
    list: &mut EntryList,
    registry: &[(PlayerId, PlayerInfo)],
    event: &Tournament,
    division: DivisionId,
) {
    let div = &event.divisions[division];
    let mut names: HashMap<String, u64> = HashMap::new();
    let mut seen_ids: Vec<(String, u64)> = Vec::new();
    let mut found = Vec::new();
    let mut known = Vec::new();
    for (k, p) in list.players.iter().enumerate() {
        let key = folded(&p.info.name);
        if let Some(first) = names.get(&key) {
            let text = format!("{} is also on line {first}", p.info.name);
            found.push((p.line, Field::Name, text));
        } else {
            names.insert(key, p.line);
        }
        for id in ids(&p.info.federation_ids) {
            if let Some((_, first)) = seen_ids.iter().find(|(s, _)| same_id(s, &id)) {
                found.push((p.line, Field::Id, format!("{id} is also on line {first}")));
            } else {
                seen_ids.push((id, p.line));
            }
        }
        match in_registry(&p.info, registry) {
            Ok(Some(id)) => {
                if div.entrant(id).is_some() {
                    let text = format!(
                        "{} is already entered in {} (player {id})",
                        p.info.name, div.name
                    );
                    found.push((p.line, Field::Name, text));
                }
                known.push((k, id));
            }
            Ok(None) => {}
            Err((field, text)) => found.push((p.line, field, text)),
        }
    }
    for (k, id) in known {
        found_player(list, k, id, registry);
    }
    for (line, field, text) in found {
        list.problem(line, Some(field), text);
    }
}

/// Player `k` of the list is the registry's player `id`: the list's cells left empty are
/// filled from the registry.
fn found_player(list: &mut EntryList, k: usize, id: PlayerId, registry: &[(PlayerId, PlayerInfo)]) {
    let Some((_, known)) = registry.iter().find(|(i, _)| *i == id) else {
        return;
    };
    let p = &mut list.players[k];
    p.registered = Some(id);
    for (cell, kept) in [
        (&mut p.info.club, &known.club),
        (&mut p.info.region, &known.region),
        (&mut p.info.federation_ids, &known.federation_ids),
    ] {
        if cell.is_empty() {
            cell.clone_from(kept);
        }
    }
    p.info.rating = p.info.rating.or(known.rating);
}

/// The registry's player a listed player is: the one with the same id (and the same name),
/// else the only one of that name (with no other id); none: a new player. An id the registry
/// gives to another name, or a name it gives to another id or to several players, is a
/// problem (which field, and what).
fn in_registry(
    p: &PlayerInfo,
    registry: &[(PlayerId, PlayerInfo)],
) -> Result<Option<PlayerId>, (Field, String)> {
    let mine = ids(&p.federation_ids);
    let name = folded(&p.name);
    if let Some((id, known)) = registry
        .iter()
        .find(|(_, r)| share_id(&mine, &ids(&r.federation_ids)))
    {
        if folded(&known.name) == name {
            return Ok(Some(*id));
        }
        let text = format!(
            "{} is {}'s in the registry (player {id}), not {}'s",
            p.federation_ids, known.name, p.name
        );
        return Err((Field::Id, text));
    }
    let same: Vec<&(PlayerId, PlayerInfo)> = registry
        .iter()
        .filter(|(_, r)| folded(&r.name) == name)
        .collect();
    match same.as_slice() {
        [] => Ok(None),
        [(id, known)] if mine.is_empty() || known.federation_ids.trim().is_empty() => Ok(Some(*id)),
        [(id, known)] => Err((
            Field::Name,
            format!(
                "{} is registered (player {id}) with id {}, the list gives {}",
                p.name, known.federation_ids, p.federation_ids
            ),
        )),
        many => {
            let numbers: Vec<String> = many.iter().map(|(id, _)| id.to_string()).collect();
            Err((
                Field::Name,
                format!(
                    "{} players of the registry are called {} (players {}): give their ids",
                    many.len(),
                    p.name,
                    numbers.join(", ")
                ),
            ))
        }
    }
}
