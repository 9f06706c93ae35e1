//! Graphs, scenes and flow fields: loaded from a path or from bytes in memory, edited where a
//! game needs to (parameter defaults and overrides), freed.

use std::ffi::c_char;
use std::path::Path;

use graph_runtime::{FileAccess, FlowField, Graph, LoadError, Scene, SceneAssets, text_from_bytes};

use crate::handles::{insert, remove, with};
use crate::kinds::{SgField, SgGraph, SgScene};
use crate::ptr::{finite, input, put, required, text};
use crate::status::{Failure, SgStatus, guard};

fn load_failure(error: &LoadError) -> Failure {
    Failure::new(SgStatus::Load, error.to_string())
}

/// The text of `length` bytes at `bytes`, named `origin` in errors.
///
/// # Safety
///
/// As [`input`] and [`text`].
unsafe fn text_of(
    bytes: *const u8,
    length: usize,
    origin: *const c_char,
) -> Result<(String, String), Failure> {
    // SAFETY: passed on from the caller.
    let (bytes, origin) = unsafe { (input(bytes, length, "bytes")?, text(origin, "origin")?) };
    let text = text_from_bytes(bytes.to_vec(), origin).map_err(|e| load_failure(&e))?;
    Ok((text, origin.to_owned()))
}

/// Loads the graph file at `path` (UTF-8, or the bytes of the file name on Unix).
///
/// # Safety
///
/// `path` is a NUL-terminated string; `graph` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_graph_load(path: *const c_char, graph: *mut SgGraph) -> SgStatus {
    guard(|| {
        required(graph, "graph")?;
        // SAFETY: the caller's pointers.
        let file = unsafe { crate::ptr::path(path, "path") }?;
        let loaded = Graph::load(&file).map_err(|e| load_failure(&e))?;
        let id = insert(loaded)?;
        // SAFETY: checked above.
        unsafe { put(graph, "graph", SgGraph { id }) }
    })
}

/// Reads a graph from `length` bytes of RON text at `bytes`; `origin` names it in errors
/// (`origin:line:col: …`), say the path it came from in the game's archive.
///
/// # Safety
///
/// `bytes` is valid for reading `length` bytes; `origin` is a NUL-terminated string; `graph` is
/// valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_graph_from_bytes(
    bytes: *const u8,
    length: usize,
    origin: *const c_char,
    graph: *mut SgGraph,
) -> SgStatus {
    guard(|| {
        required(graph, "graph")?;
        // SAFETY: the caller's pointers.
        let (text, origin) = unsafe { text_of(bytes, length, origin) }?;
        let loaded = Graph::from_ron(&text, &origin).map_err(|e| load_failure(&e))?;
        let id = insert(loaded)?;
        // SAFETY: checked above.
        unsafe { put(graph, "graph", SgGraph { id }) }
    })
}

/// Sets the default value of the graph parameter `name` (programs compiled from the graph
/// afterwards use it). Refused when the graph declares no such parameter or `value` is not
/// finite; the program checks the value against the fields that use it when compiled.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_graph_set_parameter(
    graph: SgGraph,
    name: *const c_char,
    value: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        let value = finite(value, "value")?;
        with::<Graph, _>(graph.id, "graph", |graph| {
            if !graph.parameters.contains_key(name) {
                let known: Vec<&str> = graph.parameters.keys().map(String::as_str).collect();
                return Err(Failure::invalid(format!(
                    "the graph has no parameter \"{name}\" (it has: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                )));
            }
            graph.parameters.insert(name.to_owned(), value);
            Ok(())
        })
    })
}

/// Frees a graph. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_graph_free(graph: SgGraph) -> SgStatus {
    guard(|| remove::<Graph>(graph.id, "graph"))
}

/// Loads the scene at `path` and every graph, subgraph and flow-field file it names. The
/// files must lie inside the scene's folder (a modder's level cannot make the game read
/// elsewhere). Every problem found is reported, one per line.
///
/// # Safety
///
/// `path` is a NUL-terminated string; `scene` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_scene_load(path: *const c_char, scene: *mut SgScene) -> SgStatus {
    guard(|| {
        required(scene, "scene")?;
        // SAFETY: the caller's pointers.
        let file = unsafe { crate::ptr::path(path, "path") }?;
        let assets = SceneAssets::load_with(&file, FileAccess::SceneFolder)
            .map_err(|errors| Failure::list(SgStatus::Load, &errors))?;
        let id = insert(assets)?;
        // SAFETY: checked above.
        unsafe { put(scene, "scene", SgScene { id }) }
    })
}

/// Reads a scene from `length` bytes of RON text; the graph and flow-field files it names are
/// loaded from the folder `folder` (and must lie inside it). `origin` names the scene in
/// errors.
///
/// # Safety
///
/// `bytes` is valid for reading `length` bytes; `origin` and `folder` are NUL-terminated
/// strings; `scene` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_scene_from_bytes(
    bytes: *const u8,
    length: usize,
    origin: *const c_char,
    folder: *const c_char,
    scene: *mut SgScene,
) -> SgStatus {
    guard(|| {
        required(scene, "scene")?;
        // SAFETY: the caller's pointers.
        let ((text, origin), folder) = unsafe {
            (
                text_of(bytes, length, origin)?,
                crate::ptr::path(folder, "folder")?,
            )
        };
        let parsed = Scene::from_ron(&text, &origin).map_err(|e| load_failure(&e))?;
        let assets =
            SceneAssets::resolve_with(parsed, &origin, Path::new(&folder), FileAccess::SceneFolder)
                .map_err(|errors| Failure::list(SgStatus::Load, &errors))?;
        let id = insert(assets)?;
        // SAFETY: checked above.
        unsafe { put(scene, "scene", SgScene { id }) }
    })
}

/// Overrides the graph parameter `name` for the scene's group `group` (as the scene file's
/// `parameters:`), for simulations created afterwards. The group must exist; the override is
/// checked against the group's graph when the simulation is created.
///
/// # Safety
///
/// `group` and `name` are NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_scene_set_parameter(
    scene: SgScene,
    group: *const c_char,
    name: *const c_char,
    value: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointers.
        let (group, name) = unsafe { (text(group, "group")?, text(name, "name")?) };
        let value = finite(value, "value")?;
        with::<SceneAssets, _>(scene.id, "scene", |assets| {
            let known: Vec<String> = assets.scene.groups.iter().map(|g| g.name.clone()).collect();
            let found = assets
                .scene
                .groups
                .iter_mut()
                .find(|g| g.name == group)
                .ok_or_else(|| {
                    Failure::invalid(format!(
                        "the scene has no group \"{group}\" (it has: {})",
                        known.join(", ")
                    ))
                })?;
            found.parameters.insert(name.to_owned(), value);
            Ok(())
        })
    })
}

/// The scene's seed (the random numbers of its agents), as its file says.
///
/// # Safety
///
/// `seed` is valid for writing one `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_scene_seed(scene: SgScene, seed: *mut u64) -> SgStatus {
    guard(|| {
        let value = with::<SceneAssets, _>(scene.id, "scene", |assets| Ok(assets.scene.seed))?;
        // SAFETY: the caller's pointer.
        unsafe { put(seed, "seed", value) }
    })
}

/// Frees a scene. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_scene_free(scene: SgScene) -> SgStatus {
    guard(|| remove::<SceneAssets>(scene.id, "scene"))
}

/// Loads the flow-field file at `path`.
///
/// # Safety
///
/// `path` is a NUL-terminated string; `field` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_field_load(path: *const c_char, field: *mut SgField) -> SgStatus {
    guard(|| {
        required(field, "field")?;
        // SAFETY: the caller's pointers.
        let file = unsafe { crate::ptr::path(path, "path") }?;
        let loaded = FlowField::load(&file).map_err(|e| load_failure(&e))?;
        let id = insert(loaded)?;
        // SAFETY: checked above.
        unsafe { put(field, "field", SgField { id }) }
    })
}

/// Reads a flow field from `length` bytes of RON text; `origin` names it in errors.
///
/// # Safety
///
/// `bytes` is valid for reading `length` bytes; `origin` is a NUL-terminated string; `field`
/// is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_field_from_bytes(
    bytes: *const u8,
    length: usize,
    origin: *const c_char,
    field: *mut SgField,
) -> SgStatus {
    guard(|| {
        required(field, "field")?;
        // SAFETY: the caller's pointers.
        let (text, origin) = unsafe { text_of(bytes, length, origin) }?;
        let loaded = FlowField::from_ron(&text, &origin).map_err(|e| load_failure(&e))?;
        let id = insert(loaded)?;
        // SAFETY: checked above.
        unsafe { put(field, "field", SgField { id }) }
    })
}

/// Frees a flow field. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_field_free(field: SgField) -> SgStatus {
    guard(|| remove::<FlowField>(field.id, "field"))
}
