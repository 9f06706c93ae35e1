//! The checked-in header is exactly what cbindgen makes from the Rust declarations: a change
//! to an entry point that forgets the header fails here. `UPDATE_HEADER=1` rewrites it.

use std::path::Path;

#[test]
fn the_checked_in_header_matches_the_rust_declarations() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml reads");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("the header is UTF-8");
    let file = crate_dir.join("include/steergraph.h");
    if std::env::var_os("UPDATE_HEADER").is_some() {
        std::fs::write(&file, &generated).expect("header written");
    }
    let checked_in = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        checked_in == generated,
        "include/steergraph.h is not what cbindgen makes from src/: run \
         `UPDATE_HEADER=1 cargo test -p steergraph-c --test header` and commit the header"
    );
}
