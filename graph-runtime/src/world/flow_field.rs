//! Flow fields: a grid of vectors sampled bilinearly, and their `.flow.ron` files.

use std::path::Path;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::format::{self, AssetKind, LoadError, SaveError, VERSION_1};
use crate::limits::{MAX_COORDINATE, MAX_FLOW_FIELD_CELLS};

/// A grid of desired-velocity vectors, as fractions of top speed (length `<= 1`).
///
/// Cell `(column, row)` covers `origin + cell_size · [column, column + 1) × [row, row + 1)`;
/// vectors are stored row by row from the bottom row (`row = 0`, lowest y) up.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    /// Lower-left corner of the grid (units).
    pub origin: Vec2,
    /// Side of a square cell (units, `> 0`).
    pub cell_size: f32,
    /// Number of columns.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
    /// `width · height` vectors, row-major from the bottom row.
    pub vectors: Vec<Vec2>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FlowFieldFile {
    format: String,
    version: u32,
    origin: Vec2,
    cell_size: f32,
    width: u32,
    height: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    vectors: Vec<Vec2>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    packed_rows: Vec<String>,
}

/// Fields with more cells than this are written packed (one base64 string per row); smaller
/// ones as readable `(x, y)` tuples. Both forms always load.
pub const PACK_ABOVE_CELLS: usize = 1024;

/// One row as base64 (standard alphabet, padded) of little-endian `f32` x, y pairs.
fn pack_row(row: &[Vec2]) -> String {
    use base64::Engine as _;
    let bytes: Vec<u8> = row
        .iter()
        .flat_map(|v| v.x.to_le_bytes().into_iter().chain(v.y.to_le_bytes()))
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn unpack_rows(rows: &[String], width: u32, height: u32) -> Result<Vec<Vec2>, String> {
    use base64::Engine as _;
    if rows.len() != height as usize {
        return Err(format!(
            "packed_rows has {} rows, the field is {height} high",
            rows.len()
        ));
    }
    // Reserve what the rows can actually hold, not what the header claims, so short rows
    // under a huge header cost nothing: a vector is 8 bytes, about 10.7 base64 characters.
    let stored: usize = rows.iter().map(|row| row.len() / 10).sum();
    let mut vectors = Vec::with_capacity(stored.min(width as usize * height as usize));
    for (index, row) in rows.iter().enumerate() {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(row.trim())
            .map_err(|e| format!("packed_rows[{index}] is not base64: {e}"))?;
        if bytes.len() != width as usize * 8 {
            return Err(format!(
                "packed_rows[{index}] holds {} vectors, the field is {width} wide",
                bytes.len() / 8
            ));
        }
        for pair in bytes.chunks_exact(8) {
            let number = |offset: usize| {
                let mut raw = [0u8; 4];
                raw.copy_from_slice(pair.get(offset..offset + 4).unwrap_or(&[0; 4]));
                f32::from_le_bytes(raw)
            };
            vectors.push(Vec2::new(number(0), number(4)));
        }
    }
    Ok(vectors)
}

/// Refuses a grid of more than [`MAX_FLOW_FIELD_CELLS`] cells.
fn check_size(width: u32, height: u32) -> Result<(), String> {
    let cells = u64::from(width) * u64::from(height);
    if cells > MAX_FLOW_FIELD_CELLS {
        return Err(format!(
            "a {width}x{height} field has {cells} cells; the limit is {MAX_FLOW_FIELD_CELLS}"
        ));
    }
    Ok(())
}

/// The stored vectors of a field: tuples, or packed rows (exactly one of the two).
fn stored_vectors(
    vectors: Vec<Vec2>,
    packed_rows: &[String],
    width: u32,
    height: u32,
) -> Result<Vec<Vec2>, String> {
    match (vectors.is_empty(), packed_rows.is_empty()) {
        (_, true) => Ok(vectors),
        (true, false) => unpack_rows(packed_rows, width, height),
        (false, false) => Err("a field has either `vectors` or `packed_rows`, not both".to_owned()),
    }
}

/// The field's vectors in the form it is written: tuples when small, packed rows when large.
fn written_vectors(field: &FlowField) -> (Vec<Vec2>, Vec<String>) {
    if field.vectors.len() > PACK_ABOVE_CELLS && field.width > 0 {
        (
            Vec::new(),
            field
                .vectors
                .chunks(field.width as usize)
                .map(pack_row)
                .collect(),
        )
    } else {
        (field.vectors.clone(), Vec::new())
    }
}

/// The serialized body of a flow field, shared by `.flow.ron` files and inline scene fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlowFieldData {
    pub origin: Vec2,
    pub cell_size: f32,
    pub width: u32,
    pub height: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vectors: Vec<Vec2>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packed_rows: Vec<String>,
}

impl FlowField {
    /// A field of zero vectors.
    pub fn new(origin: Vec2, cell_size: f32, width: u32, height: u32) -> Self {
        Self {
            origin,
            cell_size,
            width,
            height,
            vectors: vec![Vec2::ZERO; width as usize * height as usize],
        }
    }

    /// Checks the invariants; the message says what is wrong and where.
    ///
    /// The grid has at most [`MAX_FLOW_FIELD_CELLS`] cells and lies within
    /// [`MAX_COORDINATE`] of the world origin; every vector is finite with length `<= 1`.
    pub fn validate(&self) -> Result<(), String> {
        check_size(self.width, self.height)?;
        if !(self.cell_size.is_finite() && self.cell_size > 0.0) {
            return Err(format!(
                "cell_size must be a finite number > 0, found {}",
                self.cell_size
            ));
        }
        if !self.origin.is_finite() {
            return Err("origin must be finite".to_owned());
        }
        let far_corner = self.origin.as_dvec2()
            + glam::DVec2::new(f64::from(self.width), f64::from(self.height))
                * f64::from(self.cell_size);
        let extent = f64::from(MAX_COORDINATE);
        if self.origin.abs().max_element() > MAX_COORDINATE
            || far_corner.abs().max_element() > extent
        {
            return Err(format!(
                "the grid from {} to {far_corner} lies beyond ±{MAX_COORDINATE:e} units",
                self.origin
            ));
        }
        let expected = self.width as usize * self.height as usize;
        if self.vectors.len() != expected {
            return Err(format!(
                "a {}x{} field needs {expected} vectors, found {}",
                self.width,
                self.height,
                self.vectors.len()
            ));
        }
        for (index, vector) in self.vectors.iter().enumerate() {
            if !vector.is_finite() || vector.length() > 1.0 + 1e-4 {
                let width = self.width.max(1) as usize;
                return Err(format!(
                    "vector {index} (column {}, row {}) is {vector}; field vectors must be finite with length <= 1",
                    index % width,
                    index / width
                ));
            }
        }
        Ok(())
    }

    /// The vector stored in cell `(column, row)`, if inside the grid.
    pub fn cell(&self, column: u32, row: u32) -> Option<Vec2> {
        if column >= self.width || row >= self.height {
            return None;
        }
        self.vectors
            .get(row as usize * self.width as usize + column as usize)
            .copied()
    }

    /// Mutable access to cell `(column, row)`.
    pub fn cell_mut(&mut self, column: u32, row: u32) -> Option<&mut Vec2> {
        if column >= self.width || row >= self.height {
            return None;
        }
        self.vectors
            .get_mut(row as usize * self.width as usize + column as usize)
    }

    /// The centre of cell `(column, row)` in world units.
    pub fn cell_center(&self, column: u32, row: u32) -> Vec2 {
        self.origin + (Vec2::new(column as f32, row as f32) + 0.5) * self.cell_size
    }

    /// Bilinear interpolation over cell centres at `point`; zero outside the grid. Between the
    /// outermost centres and the grid border the nearest centres' values are used.
    pub fn sample(&self, point: Vec2) -> Vec2 {
        if self.width == 0 || self.height == 0 || self.cell_size <= 0.0 {
            return Vec2::ZERO;
        }
        let grid = (point - self.origin) / self.cell_size;
        if !(grid.x >= 0.0
            && grid.y >= 0.0
            && grid.x <= self.width as f32
            && grid.y <= self.height as f32)
        {
            return Vec2::ZERO;
        }
        let u = grid - 0.5;
        let column0 = u.x.floor();
        let row0 = u.y.floor();
        let fx = u.x - column0;
        let fy = u.y - row0;
        let clamp_column = |c: f32| c.clamp(0.0, (self.width - 1) as f32) as u32;
        let clamp_row = |r: f32| r.clamp(0.0, (self.height - 1) as f32) as u32;
        let (c0, c1) = (clamp_column(column0), clamp_column(column0 + 1.0));
        let (r0, r1) = (clamp_row(row0), clamp_row(row0 + 1.0));
        let at = |c, r| self.cell(c, r).unwrap_or(Vec2::ZERO);
        let bottom = at(c0, r0).lerp(at(c1, r0), fx);
        let top = at(c0, r1).lerp(at(c1, r1), fx);
        bottom.lerp(top, fy)
    }

    /// The field stored in `data`, checked (the message says what is wrong). The size is
    /// checked before anything of that size is allocated.
    pub(crate) fn from_data(data: FlowFieldData) -> Result<Self, String> {
        check_size(data.width, data.height)?;
        let vectors = stored_vectors(data.vectors, &data.packed_rows, data.width, data.height)?;
        let field = Self {
            origin: data.origin,
            cell_size: data.cell_size,
            width: data.width,
            height: data.height,
            vectors,
        };
        field.validate()?;
        Ok(field)
    }

    pub(crate) fn to_data(&self) -> FlowFieldData {
        let (vectors, packed_rows) = written_vectors(self);
        FlowFieldData {
            origin: self.origin,
            cell_size: self.cell_size,
            width: self.width,
            height: self.height,
            vectors,
            packed_rows,
        }
    }

    /// Parses a `.flow.ron` text (tuples or packed rows); `origin` names it in errors.
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, LoadError> {
        let file: FlowFieldFile = format::parse(text, origin, AssetKind::FlowField)?;
        Self::from_data(FlowFieldData {
            origin: file.origin,
            cell_size: file.cell_size,
            width: file.width,
            height: file.height,
            vectors: file.vectors,
            packed_rows: file.packed_rows,
        })
        .map_err(|message| LoadError::Invalid {
            path: origin.to_owned(),
            message,
        })
    }

    /// Loads a `.flow.ron` file: one call for a game.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let (text, origin) = format::read_text(path)?;
        Self::from_ron(&text, &origin)
    }

    /// The field as `.flow.ron` text (version 1: flow fields did not change in version 2).
    pub fn to_ron(&self) -> Result<String, SaveError> {
        let data = self.to_data();
        format::to_text(&FlowFieldFile {
            format: AssetKind::FlowField.tag().to_owned(),
            version: VERSION_1,
            origin: data.origin,
            cell_size: data.cell_size,
            width: data.width,
            height: data.height,
            vectors: data.vectors,
            packed_rows: data.packed_rows,
        })
    }

    /// Saves the field atomically.
    pub fn save(&self, path: &Path) -> Result<(), SaveError> {
        crate::save::write_atomically(path, self.to_ron()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field() -> FlowField {
        // 2x2 cells of size 2 at the origin; centres (1,1) (3,1) (1,3) (3,3).
        let mut f = FlowField::new(Vec2::ZERO, 2.0, 2, 2);
        f.vectors = vec![Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::ZERO];
        f
    }

    #[test]
    fn sample_is_bilinear_between_centres() {
        let f = field();
        assert_eq!(f.sample(Vec2::new(1.0, 1.0)), Vec2::X);
        assert_eq!(f.sample(Vec2::new(2.0, 1.0)), Vec2::new(0.5, 0.5));
        // centre of the grid: mean of the four
        assert_eq!(f.sample(Vec2::new(2.0, 2.0)), Vec2::new(0.0, 0.25));
    }

    #[test]
    fn sample_is_zero_outside_and_clamped_near_border() {
        let f = field();
        assert_eq!(f.sample(Vec2::new(-0.1, 1.0)), Vec2::ZERO);
        assert_eq!(f.sample(Vec2::new(1.0, 4.5)), Vec2::ZERO);
        assert_eq!(f.sample(Vec2::new(0.2, 0.2)), Vec2::X);
    }
}
