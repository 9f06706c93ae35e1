//! What the C interface's tests share: presets, C strings, the last error, a status check,
//! and programs, worlds and crowds made as a C caller makes them.
#![allow(dead_code, reason = "each test file uses the helpers it needs")]
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

use std::ffi::CString;
use std::path::{Path, PathBuf};

use steergraph::*;

pub fn presets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../presets")
}

pub fn c(text: impl AsRef<str>) -> CString {
    CString::new(text.as_ref()).expect("no NUL")
}

pub fn c_path(path: &Path) -> CString {
    c(path.to_str().expect("UTF-8 path"))
}

pub fn last_error() -> String {
    let mut buffer = vec![0_u8; 4096];
    let mut length = 0;
    // SAFETY: a buffer of its stated size and a length to write.
    let status =
        unsafe { sg_last_error(buffer.as_mut_ptr().cast(), buffer.len(), &raw mut length) };
    assert_eq!(status, SgStatus::Ok);
    String::from_utf8_lossy(&buffer[..length]).into_owned()
}

#[track_caller]
pub fn ok(status: SgStatus) {
    assert_eq!(status, SgStatus::Ok, "{}", last_error());
}
