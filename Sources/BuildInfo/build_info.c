#include "build_info.h"

// Defined by Package.swift from the environment; only this file is recompiled when they change.
#ifndef LODESTONE_BUILD_COMMIT
#define LODESTONE_BUILD_COMMIT "unknown"
#endif
#ifndef LODESTONE_BUILD_DATE
#define LODESTONE_BUILD_DATE "unknown"
#endif

const char *lodestone_build_commit(void) { return LODESTONE_BUILD_COMMIT; }
const char *lodestone_build_date(void) { return LODESTONE_BUILD_DATE; }
