//! The files the process may hold open, which bound the connections it may hold: at start the
//! soft limit is raised to the hard one (a desktop's soft limit is often 1,024, its hard one
//! far more), and the server then holds at most the limit less [`HEADROOM`] connections, so
//! that the desk's database, the match files and the runtime always find a descriptor. Unix
//! only: elsewhere sockets are not counted against such a limit.

/// The descriptors kept for the database (and SQLite's files beside it), the match files read
/// at once, the runtime and the standard streams.
pub const HEADROOM: usize = 128;

/// The connections the server may hold: `wanted`, or fewer when the descriptor limit (raised
/// to the hard limit first) leaves less than that beside [`HEADROOM`].
pub(super) fn connections(wanted: usize) -> usize {
    match raise_limit() {
        Some(limit) => wanted.min(limit.saturating_sub(HEADROOM).max(1)),
        None => wanted,
    }
}

/// Raise the soft limit on open files to the hard limit; the soft limit after, if known.
#[cfg(unix)]
fn raise_limit() -> Option<usize> {
    let mut now = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limits into `now`, a valid rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) } != 0 {
        return None;
    }
    // macOS refuses a soft limit over OPEN_MAX (10,240) when the hard one is unlimited.
    for soft in [now.rlim_max, now.rlim_max.min(10_240)] {
        if soft <= now.rlim_cur {
            break;
        }
        let raised = libc::rlimit {
            rlim_cur: soft,
            rlim_max: now.rlim_max,
        };
        // SAFETY: setrlimit reads a valid rlimit; it fails rather than harm the process.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            now.rlim_cur = soft;
            break;
        }
    }
    Some(usize::try_from(now.rlim_cur).unwrap_or(usize::MAX))
}

#[cfg(not(unix))]
fn raise_limit() -> Option<usize> {
    None
}
