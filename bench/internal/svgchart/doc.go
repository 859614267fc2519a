// Package svgchart writes small grouped-bar charts as standalone SVG, by hand, for
// the benchmark reports under docs/: one panel per workload, one group of bars per x
// value (e.g. thread count), one bar per system, optional horizontal reference lines
// (e.g. a physical limit) and a shared legend.
package svgchart
