// Package sysvar owns MySQL system variables: their definitions (name, scope, type,
// default, bounds), the node's global values, and each session's overrides. It
// validates SET the way MySQL does and formats values for SHOW VARIABLES.
package sysvar
