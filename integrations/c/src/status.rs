//! What every entry point returns, the text that explains a failure, and the guard that turns
//! a Rust panic into an error instead of unwinding into C.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a call did. `SG_STATUS_OK` is zero; any other value means the call changed nothing it
/// was asked to write, and `sg_last_error` says why in words.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgStatus {
    /// Done.
    Ok = 0,
    /// A pointer argument that must not be `NULL` was `NULL`.
    NullPointer = 1,
    /// A handle that is zero, of another kind, or already freed.
    BadHandle = 2,
    /// A number that is not finite or out of range, text that is not UTF-8, an index past the
    /// end, a name the object does not have (a scene group, an own goal no graph reads), a
    /// crowd's tick of more agents than its graphs' work allows (agents × neighbors kept).
    InvalidArgument = 3,
    /// An output array (or text buffer) with less room than the answer needs; nothing was
    /// written to it.
    ArrayTooShort = 4,
    /// A file or buffer that could not be read or parsed (`file:line:col: …`), or that the
    /// format's limits refuse (a scene of more agents than the limit, say).
    Load = 5,
    /// A graph that does not compile (`node 3, port …`), its subgraphs included.
    Compile = 6,
    /// A simulation or crowd that cannot be set up from what it is given: a name the graph
    /// uses that the world lacks, parameter overrides the graph refuses, a scene whose groups'
    /// graphs do not compile or bind (every problem, one per line).
    Setup = 7,
    /// The file watcher could not start or watch a file.
    Watch = 8,
    /// A bug in Steergraph: the call panicked and was stopped at the boundary. The handles it
    /// used may be unusable afterwards (they then answer `SG_STATUS_PANIC` again).
    Panic = 9,
    /// A replay that is not its recorded run: a tick whose state differs from the recording's
    /// (the scene or the library changed since it was recorded), or a tick the run does not
    /// have.
    Replay = 10,
}

/// A failed call: its status and the message for [`crate::sg_last_error`].
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: SgStatus,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: SgStatus, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new(SgStatus::InvalidArgument, message)
    }

    /// Every error of a list, one per line, under `status`.
    pub(crate) fn list(status: SgStatus, errors: &[impl ToString]) -> Self {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Self::new(status, lines.join("\n"))
    }
}

/// What a body of an entry point returns.
pub(crate) type Answer = Result<(), Failure>;

thread_local! {
    /// The message of the last failed call on this thread.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs the body of an entry point: its error, or a panic caught here (never unwound into the
/// caller's frames), becomes a status and this thread's last error message.
pub(crate) fn guard(body: impl FnOnce() -> Answer) -> SgStatus {
    // A panic the runtime catches itself (a triangulation library's bug) is its error, not a
    // crash's message on the host's standard error.
    graph_runtime::navigation::quiet_caught_panics();
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return SgStatus::Ok,
        Ok(Err(failure)) => failure,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            Failure::new(
                SgStatus::Panic,
                format!("internal error in Steergraph (please report it): {what}"),
            )
        }
    };
    let status = failure.status;
    LAST_ERROR.with(|last| *last.borrow_mut() = failure.message);
    status
}

/// The last error message of this thread (empty when no call on it has failed).
pub(crate) fn last_error() -> String {
    LAST_ERROR.with(|last| last.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let status = guard(|| panic!("the sky fell"));
        assert_eq!(status, SgStatus::Panic);
        assert!(last_error().contains("the sky fell"), "{}", last_error());
        let status = guard(|| Err(Failure::invalid("dt is NaN")));
        assert_eq!(status, SgStatus::InvalidArgument);
        assert_eq!(last_error(), "dt is NaN");
        // A success leaves the last failure's message for the caller to read.
        assert_eq!(guard(|| Ok(())), SgStatus::Ok);
        assert_eq!(last_error(), "dt is NaN");
    }
}
