// Imported reference sets (web/views/imported_runs.hpp) as the curves each view draws over the page's own runs: the same
// quantities the view shows for the page's runs, read from the imported document, in the imported style (dashed,
// one hollow marker shape per source, listed in the legend under the source's name).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "engine/analysis/lr_transfer.hpp"
#include "engine/spec/experiment_spec.hpp"
#include "web/draw/plot.hpp"
#include "web/views/imported_runs.hpp"

// The sets drawn over an experiment with `spec`: those of the same model kind and task (overlay_mismatch).
std::vector<const ImportedSet*> drawn_sets(const std::vector<ImportedSet>& sets, const ExperimentSpec& spec);

// The marker of the `index`-th imported source.
PlotMarker imported_marker(int index);

// An empty curve in the imported style of the `set_index`-th drawn set: dashed, its marker, listed under its name.
// (The vs-width view makes its imported curves itself: web/views/width_view.hpp.)
PlotCurve imported_curve(const ImportedSet& set, int set_index, std::string label);

// A curve made in the page's style (points, colour, label, key, name) in that imported style.
PlotCurve in_imported_style(const PlotCurve& page_style, const ImportedSet& set, int set_index);

// The page's colour of each of its nets, by their legend row ("n=32"; "n=32 L=4" in vs learning rate). A net the
// page draws keeps that colour in every imported set, so the same width reads as the same colour on and off the page
// (dashes and markers tell the sets apart); a net only an import has takes imported_color.
using PageColours = std::map<std::string, ImU32>;

// vs step: one curve per imported run that recorded `metric`, coloured by its width (see PageColours).
std::vector<PlotCurve> imported_step_curves(const std::vector<const ImportedSet*>& sets, const std::string& metric,
                                            const PageColours& page);

// Per imported net (width, and depth for a residual MLP), `series` at the end of each run against its learning rate
// (mean over seeds, +inf for a run that did not finish) with η* fitted as for the page's runs
// (engine/analysis/lr_transfer.hpp); none unless the set swept two or more learning rates and recorded `series`.
std::vector<LrCurve> imported_lr_fits(const ImportedSet& set, const std::string& series);

// vs learning rate: those curves (imported_lr_fits) of every set, and η*'s marker.
std::vector<PlotCurve> imported_lr_curves(const std::vector<const ImportedSet*>& sets, const std::string& series,
                                          const PageColours& page);
