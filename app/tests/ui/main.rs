//! The editor's tests, one module per workflow, in one test binary: sixteen binaries of
//! about 85 MB each (every one links eframe) filled the disk of a CI run and spent a minute
//! linking.

mod choices;
mod common;
mod crowds;
mod editor;
mod effects;
mod events;
mod facing;
mod gpu_agents;
mod gpu_run;
mod level_designer;
mod navigation;
mod node_search;
mod node_tools;
mod preset_layouts;
mod presets_menu;
mod preview;
mod recovery;
mod reload;
mod replay;
mod replay_save;
mod rewind;
mod rewind_metrics;
mod scene_files;
mod second_hour;
mod solid_walls;
mod stuck;
mod subgraphs;
mod sweep_cli;
mod sweep_window;
mod tune_window;
mod usage;
mod workflows;
