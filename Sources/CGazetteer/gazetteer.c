// The gazetteer's data, compiled into the binary so that an installed `lodestone` needs no data
// files. The bytes are GeoNames data (CC BY 4.0); see SOURCES.md beside this file.
#include "gazetteer.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

__attribute__((aligned(16))) static const unsigned char gazetteer[] = {
#embed "gazetteer.bin"
};

__attribute__((aligned(16))) static const unsigned char gazetteer_bounds[] = {
#embed "gazetteer_bounds.bin"
};

const unsigned char *lodestone_gazetteer_bytes(void) { return gazetteer; }

unsigned long lodestone_gazetteer_size(void) { return sizeof gazetteer; }

const unsigned char *lodestone_gazetteer_bounds_bytes(void) { return gazetteer_bounds; }

unsigned long lodestone_gazetteer_bounds_size(void) { return sizeof gazetteer_bounds; }
