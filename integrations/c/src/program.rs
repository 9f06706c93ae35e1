//! Compiling a graph (with the subgraph files it uses) into a program, and the program's
//! parameters.

use std::ffi::c_char;
use std::path::Path;
use std::sync::Arc;

use graph_runtime::{Graph, Program, Subgraphs};

use crate::handles::{insert, remove, with};
use crate::kinds::{SgGraph, SgProgram};
use crate::ptr::{put, put_text, required};
use crate::status::{Failure, SgStatus, guard};

/// `graph`, saved at `file`, compiled with the subgraph files beside it; the errors as
/// `steergraph check` prints them (why a subgraph file did not load, then
/// `file: node N …`).
fn compile(graph: &Graph, file: &Path) -> Result<Program, Failure> {
    let subgraphs = Subgraphs::load(graph, file);
    subgraphs.compile(graph).map_err(|errors| {
        let lines = subgraphs.messages(&file.display().to_string(), &errors);
        Failure::new(SgStatus::Compile, lines.join("\n"))
    })
}

/// Compiles `graph` given without a path: no subgraph file is read (there is no folder to read
/// it from; the process's current folder is not one), so a Subgraph node is refused by node
/// and file, with what to do.
fn compile_without_folder(graph: &Graph) -> Result<Program, Failure> {
    graph_runtime::compile(graph).map_err(|errors| {
        let mut lines: Vec<String> = errors.iter().map(|e| format!("graph: {e}")).collect();
        if errors
            .iter()
            .any(|e| matches!(e, graph_runtime::CompileError::SubgraphMissing { .. }))
        {
            lines.push(
                "graph: its subgraph files are read from the folder of the graph's file; pass that file's path to sg_program_compile"
                    .to_owned(),
            );
        }
        Failure::new(SgStatus::Compile, lines.join("\n"))
    })
}

/// Loads the graph file at `path`, the subgraph files it uses (from its folder) and compiles
/// it: what a game needs to steer with a graph in one call.
///
/// # Safety
///
/// `path` is a NUL-terminated string; `program` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_program_load(path: *const c_char, program: *mut SgProgram) -> SgStatus {
    guard(|| {
        required(program, "program")?;
        // SAFETY: the caller's pointer.
        let file = unsafe { crate::ptr::path(path, "path") }?;
        let graph = Graph::load(&file).map_err(|e| Failure::new(SgStatus::Load, e.to_string()))?;
        let id = insert(Arc::new(compile(&graph, &file)?))?;
        // SAFETY: checked above.
        unsafe { put(program, "program", SgProgram { id }) }
    })
}

/// Compiles a loaded graph. `path` is where the graph's file is (or would be): the subgraph
/// files it names are read from that folder, and errors name it. `NULL` for a graph that uses
/// no subgraphs (errors then name it "graph"); with `NULL` a Subgraph node is refused
/// (`SG_STATUS_COMPILE`, naming the node and its file), never read from the current folder.
///
/// # Safety
///
/// `path` is `NULL` or a NUL-terminated string; `program` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_program_compile(
    graph: SgGraph,
    path: *const c_char,
    program: *mut SgProgram,
) -> SgStatus {
    guard(|| {
        required(program, "program")?;
        let file = if path.is_null() {
            std::path::PathBuf::from("graph")
        } else {
            // SAFETY: the caller's pointer, not NULL.
            unsafe { crate::ptr::path(path, "path") }?
        };
        let compiled = if path.is_null() {
            with::<Graph, _>(graph.id, "graph", |graph| compile_without_folder(graph))?
        } else {
            with::<Graph, _>(graph.id, "graph", |graph| compile(graph, &file))?
        };
        let id = insert(Arc::new(compiled))?;
        // SAFETY: checked above.
        unsafe { put(program, "program", SgProgram { id }) }
    })
}

/// Frees a program. Crowds and watchers that use it keep their own reference. Zero is
/// accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_program_free(program: SgProgram) -> SgStatus {
    guard(|| remove::<Arc<Program>>(program.id, "program"))
}

/// How many parameters the graph declares (they are numbered `0..count`, in name order).
///
/// # Safety
///
/// `count` is valid for writing one `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_program_parameter_count(
    program: SgProgram,
    count: *mut usize,
) -> SgStatus {
    guard(|| {
        let value =
            with::<Arc<Program>, _>(program.id, "program", |p| Ok(p.parameter_names().len()))?;
        // SAFETY: the caller's pointer.
        unsafe { put(count, "count", value) }
    })
}

/// Parameter number `index`: its name (into `name`, as `sg_last_error` copies text) and its
/// default value.
///
/// # Safety
///
/// `name` is `NULL` or valid for writing `capacity` bytes; `length` and `default_value` are
/// valid for writing one value each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_program_parameter(
    program: SgProgram,
    index: usize,
    name: *mut c_char,
    capacity: usize,
    length: *mut usize,
    default_value: *mut f32,
) -> SgStatus {
    guard(|| {
        let (text, value) = with::<Arc<Program>, _>(program.id, "program", |p| {
            let names = p.parameter_names();
            let text = names.get(index).ok_or_else(|| {
                Failure::invalid(format!("parameter {index}: the graph has {}", names.len()))
            })?;
            let value = p
                .default_parameters()
                .values()
                .get(index)
                .copied()
                .unwrap_or(0.0);
            Ok((text.clone(), value))
        })?;
        required(default_value, "default_value")?;
        // SAFETY: the caller's pointers.
        unsafe {
            put_text(&text, name, capacity, length, "name")?;
            put(default_value, "default_value", value)
        }
    })
}
