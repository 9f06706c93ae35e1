//! Versions, the last error's text, and the number format of Steergraph's files and CSV.

use std::ffi::c_char;

use crate::ptr::{put, put_text};
use crate::status::{Failure, SgStatus, guard, last_error};

/// The library's version (`major.minor.patch`, as the crate's).
///
/// # Safety
///
/// Each pointer is `NULL` (refused) or valid for writing one `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_version(major: *mut u32, minor: *mut u32, patch: *mut u32) -> SgStatus {
    guard(|| {
        let part = |text: &str| text.parse::<u32>().unwrap_or(0);
        // SAFETY: the caller's pointers, checked for NULL in `put`.
        unsafe {
            put(major, "major", part(env!("CARGO_PKG_VERSION_MAJOR")))?;
            put(minor, "minor", part(env!("CARGO_PKG_VERSION_MINOR")))?;
            put(patch, "patch", part(env!("CARGO_PKG_VERSION_PATCH")))
        }
    })
}

/// The newest asset format version this library reads and writes (`version:` in the files;
/// older versions load too, newer ones are refused with a message saying so).
///
/// # Safety
///
/// `version` is `NULL` (refused) or valid for writing one `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_format_version(version: *mut u32) -> SgStatus {
    // SAFETY: the caller's pointer, checked for NULL in `put`.
    guard(|| unsafe { put(version, "version", graph_runtime::FORMAT_VERSION) })
}

/// Copies the message of the last call that failed on this thread into `buffer` (NUL
/// terminated, at most `capacity` bytes) and its length in bytes (without the NUL) into
/// `*length`. `buffer` `NULL` with `capacity` 0 asks for the length only. The message is
/// empty when no call on this thread has failed; a successful call leaves it as it was.
///
/// Returns `SG_STATUS_ARRAY_TOO_SHORT` (and writes only `*length`) when the buffer is too
/// small. This call's own failures do not replace the stored message.
///
/// # Safety
///
/// `buffer` is `NULL` or valid for writing `capacity` bytes; `length` is `NULL` (refused) or
/// valid for writing one `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_last_error(
    buffer: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    let message = last_error();
    // SAFETY: the caller's pointers, checked in `put_text`. Not through `guard`: a failure
    // here must not overwrite the message being asked for.
    match std::panic::catch_unwind(|| unsafe {
        put_text(&message, buffer, capacity, length, "buffer")
    }) {
        Ok(Ok(())) => SgStatus::Ok,
        Ok(Err(Failure { status, .. })) => status,
        Err(_) => SgStatus::Panic,
    }
}

/// Writes `value` as Steergraph's files and `steergraph simulate`'s CSV do: the shortest
/// decimal text that reads back as the same `float` (`0.1`, `-3`, `12.345678`, `1e-7`
/// written `0.0000001`), NUL terminated, into `buffer` (room for `capacity` bytes), and its
/// length into `*length`. 64 bytes are always enough. For a C or Python program that writes
/// the same CSV as the command line, byte for byte.
///
/// # Safety
///
/// As [`sg_last_error`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_format_f32(
    value: f32,
    buffer: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    // SAFETY: the caller's pointers, checked in `put_text`.
    guard(|| unsafe { put_text(&value.to_string(), buffer, capacity, length, "buffer") })
}
