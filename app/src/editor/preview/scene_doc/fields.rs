//! The scene's flow fields as files: the working copies loaded when the scene opens, one
//! field saved as a file or loaded from one, and the scene naming the files a save wrote.

use std::collections::BTreeMap;

use graph_runtime::{FlowField, FlowFieldSource, Scene};

use super::super::super::presets;
use super::SceneDocument;

impl SceneDocument {
    pub(super) fn load_fields(&mut self) {
        self.fields.clear();
        for (name, source) in self.scene.flow_fields.clone() {
            match source {
                FlowFieldSource::Inline(field) => {
                    self.fields.insert(name, field);
                }
                FlowFieldSource::File(file) => match self.load_field(&file) {
                    Ok(field) => {
                        self.fields.insert(name, field);
                    }
                    Err(problem) => self
                        .problems
                        .push(format!("flow field \"{name}\": {problem}")),
                },
            }
        }
        self.fields_changed();
    }

    fn load_field(&self, file: &str) -> Result<FlowField, String> {
        if let Some(path) = self.directory().map(|d| d.join(file))
            && path.exists()
        {
            return FlowField::load(&path).map_err(|e| e.to_string());
        }
        presets::SCENES.iter().find(|p| p.file == file).map_or_else(
            || {
                Err(format!(
                    "flow field file \"{file}\" not found beside the scene"
                ))
            },
            |p| FlowField::from_ron(p.text, p.file).map_err(|e| e.to_string()),
        )
    }

    /// The fields in `files` (name, file) were saved as those files: the scene names them so
    /// from now on, in every undo step too (the data stays in the working copies).
    pub fn fields_saved_as_files(&mut self, files: &BTreeMap<String, String>) {
        let name_files = |scene: &mut Scene| {
            for (name, file) in files {
                if let Some(source) = scene.flow_fields.get_mut(name)
                    && matches!(source, FlowFieldSource::Inline(_))
                {
                    *source = FlowFieldSource::File(file.clone());
                }
            }
        };
        name_files(&mut self.scene);
        self.history
            .rewrite(|snapshot| name_files(&mut snapshot.scene));
    }

    /// The scene with its working fields inline (for the autosave).
    pub fn with_fields_inline(&self) -> Scene {
        let mut scene = self.scene.clone();
        for (name, field) in &self.fields {
            scene
                .flow_fields
                .insert(name.clone(), FlowFieldSource::Inline(field.clone()));
        }
        scene
    }

    /// Writes field `name` to `path` and makes the scene refer to that file.
    pub fn save_field_as(&mut self, name: &str, path: &std::path::Path) -> Result<(), String> {
        let field = self
            .fields
            .get(name)
            .ok_or_else(|| format!("the scene has no flow field \"{name}\""))?;
        field.save(path).map_err(|e| e.to_string())?;
        let file = match self.directory() {
            Some(dir) => path.strip_prefix(&dir).unwrap_or(path),
            None => path,
        };
        self.scene.flow_fields.insert(
            name.to_owned(),
            FlowFieldSource::File(file.display().to_string()),
        );
        Ok(())
    }

    /// Replaces field `name`'s data with the field file at `path`.
    pub fn load_field_from(&mut self, name: &str, path: &std::path::Path) -> Result<(), String> {
        let loaded = FlowField::load(path).map_err(|e| e.to_string())?;
        self.fields.insert(name.to_owned(), loaded);
        self.fields_changed();
        Ok(())
    }
}
