//! `carryover merge-driver %O %A %B`: git's merge driver for the seed (ADR 0021), so that
//! any merge of the data home's history (a `sync`, a `git pull` by hand) merges by id.

use crate::application::merge_seed_texts;
use crate::interface::cli::MergeDriverArgs;
use crate::interface::composition::App;
use crate::interface::error::CliError;

/// Merges the three versions git hands over and writes the result over `ours`; a non-zero
/// exit (a side that is not a seed) leaves git's merge unresolved.
pub fn merge_driver(args: &MergeDriverArgs, app: &App) -> Result<(), CliError> {
    let read = |path: &std::path::Path| {
        fs_err::read_to_string(path).map_err(|error| CliError::failed(error.to_string(), None))
    };
    let (base, ours, theirs) = (read(&args.base)?, read(&args.ours)?, read(&args.theirs)?);
    // git runs the driver at the top of the work tree.
    let newer = app.newer_merge_side(&app.cwd(None));
    let (merged, conflicts) = merge_seed_texts(&base, &ours, &theirs, newer)?;
    fs_err::write(&args.ours, merged).map_err(|error| CliError::failed(error.to_string(), None))?;
    for conflict in &conflicts {
        crate::tell!(
            "carryover: both sides changed {}: kept {}; the other had {}",
            conflict.path,
            conflict.kept,
            conflict.other
        );
    }
    app.report_merge_conflicts(&conflicts);
    Ok(())
}
