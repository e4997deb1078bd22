// The I2C system calls Lodestone uses: libi2c's SMBus helpers and the i2c-dev ioctls.
// Debian package: libi2c-dev.
#pragma once
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

// ioctl is variadic, which Swift cannot call; these wrappers give it a fixed signature.
static inline int ci2c_set_slave(int fd, long address) { return ioctl(fd, I2C_SLAVE, address); }
static inline int ci2c_funcs(int fd, unsigned long *funcs) { return ioctl(fd, I2C_FUNCS, funcs); }
static inline int ci2c_rdwr(int fd, struct i2c_rdwr_ioctl_data *data) { return ioctl(fd, I2C_RDWR, data); }
