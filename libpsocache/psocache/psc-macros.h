/* psc-macros.h: export and inclusion guards shared by every public header.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#if defined(_WIN32) || defined(__CYGWIN__)
# define _PSC_EXPORT __declspec(dllexport) extern
#elif defined(__GNUC__)
# define _PSC_EXPORT __attribute__((visibility ("default"))) extern
#else
# define _PSC_EXPORT extern
#endif

/**
 * PSC_AVAILABLE_IN_ALL:
 *
 * Marks a symbol as part of the public ABI since the first release.
 */
#define PSC_AVAILABLE_IN_ALL _PSC_EXPORT

/**
 * PSC_AVAILABLE_IN_0_1:
 *
 * Marks a symbol available since libpsocache 0.1.
 */
#define PSC_AVAILABLE_IN_0_1 _PSC_EXPORT
