//! An entry list's columns: which field each header names, by a few common spellings, letter
//! case, spaces and punctuation aside; and the delimiter, given or sniffed from the header.

/// A player field a column can give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Field {
    Name,
    /// A given name, joined before the family name when there is no name column.
    First,
    /// A family name.
    Last,
    Id,
    Rating,
    Club,
    Region,
}

impl Field {
    /// The field as a report names it.
    pub(super) fn label(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::First => "first name",
            Field::Last => "last name",
            Field::Id => "id",
            Field::Rating => "rating",
            Field::Club => "club",
            Field::Region => "state or country",
        }
    }
}

/// The headers each field answers to, lower case, letters and digits only.
const ALIASES: &[(Field, &[&str])] = &[
    (
        Field::Name,
        &["name", "player", "playername", "fullname", "names"],
    ),
    (Field::First, &["firstname", "givenname", "forename"]),
    (Field::Last, &["lastname", "surname", "familyname"]),
    (
        Field::Id,
        &[
            "id",
            "ids",
            "playerid",
            "memberid",
            "membernumber",
            "federationid",
            "federationids",
            "fedid",
            "acfid",
            "acf",
            "fmjdid",
            "wcdfid",
            "fideid",
        ],
    ),
    (
        Field::Rating,
        &[
            "rating",
            "rtg",
            "elo",
            "acfrating",
            "fmjdrating",
            "wcdfrating",
            "fiderating",
        ],
    ),
    (Field::Club, &["club", "team", "clubname"]),
    (
        Field::Region,
        &[
            "state",
            "country",
            "federation",
            "fed",
            "region",
            "province",
            "nation",
            "stateorcountry",
        ],
    ),
];

/// A header as compared: lower case, letters and digits only ("Player Name" is "playername").
fn folded(header: &str) -> String {
    header
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The field a header names, if any.
pub(super) fn field_of(header: &str) -> Option<Field> {
    let h = folded(header);
    ALIASES
        .iter()
        .find(|(_, names)| names.contains(&h.as_str()))
        .map(|(f, _)| *f)
}

/// The delimiter an option names: `,` `;` or a tab (`tab`, `\t`).
pub fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "," | "comma" => Ok(b','),
        ";" | "semicolon" => Ok(b';'),
        "\t" | "\\t" | "tab" => Ok(b'\t'),
        _ => Err(format!(
            "delimiter {text:?}: use \",\", \";\" or tab (a list's cells are separated by one of them)"
        )),
    }
}

/// The delimiter of a list whose text is `text`: of comma, semicolon and tab, the one its
/// first line holds most often outside quotes (a comma when it holds none).
pub(super) fn sniff(text: &str) -> u8 {
    let first = text.lines().next().unwrap_or("");
    let mut counts = [(b',', 0), (b';', 0), (b'\t', 0)];
    let mut quoted = false;
    for c in first.bytes() {
        if c == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(n) = counts.iter_mut().find(|(d, _)| *d == c) {
            n.1 += 1;
        }
    }
    // The first of the most frequent: a tie goes to the comma.
    counts
        .iter()
        .fold(
            (b',', 0),
            |best, &(d, n)| if n > best.1 { (d, n) } else { best },
        )
        .0
}

/// The delimiter as a report names it.
pub(super) fn delimiter_name(d: u8) -> &'static str {
    match d {
        b';' => "semicolon",
        b'\t' => "tab",
        _ => "comma",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_letter_case_and_spaces_aside() {
        assert_eq!(field_of(" Player Name "), Some(Field::Name));
        assert_eq!(field_of("RATING"), Some(Field::Rating));
        assert_eq!(field_of("Federation"), Some(Field::Region));
        assert_eq!(field_of("ACF ID"), Some(Field::Id));
        assert_eq!(field_of("Last_Name"), Some(Field::Last));
        assert_eq!(field_of("Email"), None);
    }

    #[test]
    fn the_delimiter_is_the_header_s_commonest() {
        assert_eq!(sniff("Name;Rating;Club\nA;1;x"), b';');
        assert_eq!(sniff("\"Lee, Ann\";Rating\n"), b';');
        assert_eq!(sniff("Name,Rating\n"), b',');
        assert_eq!(sniff("Name\tRating\n"), b'\t');
        assert_eq!(sniff("Name\n"), b',');
        assert_eq!(parse_delimiter("tab"), Ok(b'\t'));
        assert!(parse_delimiter("|").is_err());
    }
}
