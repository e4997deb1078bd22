// libgps (Debian package libgps-dev), the gpsd client library.
#pragma once
#include <gps.h>
