// What `lodestone --version` says about the build: the git commit and the build date. The Makefile
// sets them through the environment Package.swift reads (LODESTONE_BUILD_COMMIT, LODESTONE_BUILD_DATE);
// a plain `swift build` says "unknown". The version number itself is `lodestoneVersion` in the
// executable (one place); the Debian package takes its version from the binary.
#ifndef LODESTONE_BUILD_INFO_H
#define LODESTONE_BUILD_INFO_H

/// The git commit the binary was built from (short hash, "-dirty" with uncommitted changes), or "unknown".
const char *lodestone_build_commit(void);
/// The UTC date of the build (YYYY-MM-DD; SOURCE_DATE_EPOCH's when set), or "unknown".
const char *lodestone_build_date(void);

#endif
