//! Saying what a broken save of a graph means for the running game.

use bevy_asset::{AssetLoadFailedEvent, Assets};
use bevy_ecs::message::MessageReader;
use bevy_ecs::system::Res;

use crate::SteerGraph;

/// Logs every graph that failed to load, with the loader's error (`file:line:col`, node ids),
/// and whether agents go on with the last good program (a broken save) or wait (a first load).
pub(crate) fn report_failed_graphs(
    mut failures: MessageReader<AssetLoadFailedEvent<SteerGraph>>,
    graphs: Res<Assets<SteerGraph>>,
) {
    for failure in failures.read() {
        if graphs.contains(failure.id) {
            tracing::error!(
                "{}: the saved graph does not load; agents keep running the last good program until it is fixed:\n{}",
                failure.path,
                failure.error
            );
        } else {
            tracing::error!(
                "{}: the graph does not load; its agents stand still until it does:\n{}",
                failure.path,
                failure.error
            );
        }
    }
}
