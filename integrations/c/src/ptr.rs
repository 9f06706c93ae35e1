//! Every read and write through a pointer C passed in: checked for `NULL` and alignment here,
//! once, so the entry points work on slices and checked outputs.
//!
//! What cannot be checked is the caller's part of the contract (the header's rules): a
//! non-`NULL` pointer points to as many valid elements as the length given with it, and output
//! arrays do not overlap inputs.

use std::ffi::{CStr, c_char};
use std::path::PathBuf;
use std::ptr::NonNull;

use crate::status::{Failure, SgStatus};

fn null(what: &str) -> Failure {
    Failure::new(SgStatus::NullPointer, format!("{what} is NULL"))
}

fn checked<T>(ptr: *const T, what: &str) -> Result<NonNull<T>, Failure> {
    let ptr = NonNull::new(ptr.cast_mut()).ok_or_else(|| null(what))?;
    if ptr.is_aligned() {
        Ok(ptr)
    } else {
        Err(Failure::invalid(format!(
            "{what} is not aligned for its type ({} bytes)",
            std::mem::align_of::<T>()
        )))
    }
}

/// The NUL-terminated UTF-8 text at `ptr`.
///
/// # Safety
///
/// `ptr` is `NULL` or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    let ptr = checked(ptr, what)?;
    // SAFETY: non-null, and the caller promises a NUL-terminated string.
    let text = unsafe { CStr::from_ptr(ptr.as_ptr()) };
    text.to_str()
        .map_err(|error| Failure::invalid(format!("{what} is not UTF-8: {error}")))
}

/// The file path at `ptr`: bytes as they are on Unix, UTF-8 elsewhere.
///
/// # Safety
///
/// As [`text`].
pub(crate) unsafe fn path(ptr: *const c_char, what: &str) -> Result<PathBuf, Failure> {
    let ptr = checked(ptr, what)?;
    // SAFETY: non-null, and the caller promises a NUL-terminated string.
    let bytes = unsafe { CStr::from_ptr(ptr.as_ptr()) };
    if bytes.is_empty() {
        return Err(Failure::invalid(format!("{what} is empty")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes.to_bytes())))
    }
    #[cfg(not(unix))]
    {
        bytes
            .to_str()
            .map(PathBuf::from)
            .map_err(|error| Failure::invalid(format!("{what} is not UTF-8: {error}")))
    }
}

/// The `len` elements at `ptr` (`ptr` may be `NULL` when `len` is zero).
///
/// # Safety
///
/// `ptr` is `NULL` or points to `len` initialized elements that outlive `'a` and that nothing
/// writes meanwhile.
pub(crate) unsafe fn input<'a, T>(
    ptr: *const T,
    len: usize,
    what: &str,
) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    let ptr = checked(ptr, what)?;
    if len
        .checked_mul(std::mem::size_of::<T>())
        .is_none_or(|bytes| bytes > isize::MAX as usize)
    {
        return Err(Failure::invalid(format!(
            "{what}: {len} elements is too many"
        )));
    }
    // SAFETY: non-null, aligned, and the caller promises `len` valid elements.
    Ok(unsafe { std::slice::from_raw_parts(ptr.as_ptr(), len) })
}

/// An output array of `len` elements: written element by element, never read, never turned
/// into a Rust reference (so arrays that alias each other are written, not undefined).
pub(crate) struct Output<T> {
    ptr: NonNull<T>,
    len: usize,
}

impl<T> Output<T> {
    /// The array at `ptr` with room for `len` elements.
    ///
    /// # Safety
    ///
    /// `ptr` is `NULL` or valid for writing `len` elements for as long as the `Output` lives.
    pub(crate) unsafe fn new(ptr: *mut T, len: usize, what: &str) -> Result<Self, Failure> {
        Ok(Self {
            ptr: checked(ptr, what)?,
            len,
        })
    }

    /// Like [`Output::new`], but `NULL` means "not wanted".
    ///
    /// # Safety
    ///
    /// As [`Output::new`].
    pub(crate) unsafe fn optional(
        ptr: *mut T,
        len: usize,
        what: &str,
    ) -> Result<Option<Self>, Failure> {
        if ptr.is_null() {
            Ok(None)
        } else {
            // SAFETY: passed on from the caller.
            unsafe { Self::new(ptr, len, what) }.map(Some)
        }
    }

    /// Refuses an array with room for fewer than `needed` elements.
    pub(crate) fn needs(&self, needed: usize, what: &str) -> Result<(), Failure> {
        if self.len < needed {
            return Err(Failure::new(
                SgStatus::ArrayTooShort,
                format!(
                    "{what} has room for {} values, {needed} are needed",
                    self.len
                ),
            ));
        }
        Ok(())
    }

    /// Writes `value` at `index`; an index past the end is dropped (callers check
    /// [`Output::needs`] first).
    pub(crate) fn set(&mut self, index: usize, value: T) {
        if index < self.len {
            // SAFETY: in bounds of the array the caller promised.
            unsafe { self.ptr.as_ptr().add(index).write(value) };
        }
    }
}

/// Writes one value to a required output pointer.
///
/// # Safety
///
/// `ptr` is `NULL` or valid for writing one `T`.
pub(crate) unsafe fn put<T>(ptr: *mut T, what: &str, value: T) -> Result<(), Failure> {
    let ptr = checked(ptr, what)?;
    // SAFETY: non-null, aligned, and the caller promises it is writable.
    unsafe { ptr.as_ptr().write(value) };
    Ok(())
}

/// Checks a required output pointer before the work that fills it, so a `NULL` is refused
/// before anything is made (and nothing is made that nobody could free).
pub(crate) fn required<T>(ptr: *mut T, what: &str) -> Result<(), Failure> {
    checked(ptr, what).map(|_| ())
}

/// Copies `text` and a NUL into `buffer` (room for `capacity` bytes) and its length in bytes
/// (without the NUL) into `*length`. `buffer` `NULL` with `capacity` 0 asks for the length
/// only.
///
/// # Safety
///
/// `buffer` is `NULL` or valid for writing `capacity` bytes; `length` is `NULL` or valid for
/// writing one `size_t`.
pub(crate) unsafe fn put_text(
    text: &str,
    buffer: *mut c_char,
    capacity: usize,
    length: *mut usize,
    what: &str,
) -> Result<(), Failure> {
    // SAFETY: passed on from the caller.
    unsafe { put(length, "length", text.len()) }?;
    if buffer.is_null() && capacity == 0 {
        return Ok(());
    }
    // SAFETY: passed on from the caller.
    let mut out = unsafe { Output::new(buffer.cast::<u8>(), capacity, what) }?;
    out.needs(text.len() + 1, what)?;
    for (index, &byte) in text.as_bytes().iter().enumerate() {
        out.set(index, byte);
    }
    out.set(text.len(), 0);
    Ok(())
}

/// Refuses a number that is not finite.
pub(crate) fn finite(value: f32, what: &str) -> Result<f32, Failure> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Failure::invalid(format!(
            "{what} is {value}, not a finite number"
        )))
    }
}

/// Refuses a time step that is not a finite number > 0.
pub(crate) fn time_step(dt: f32) -> Result<f32, Failure> {
    if dt.is_finite() && dt > 0.0 {
        Ok(dt)
    } else {
        Err(Failure::invalid(format!(
            "dt must be a finite number > 0, found {dt}"
        )))
    }
}
