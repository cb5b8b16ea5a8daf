/*
 * bcryptprimitives.dll for Wine 8 (Debian 12's), which lacks it: the Rust standard library
 * asks it for random bytes (ProcessPrng, present since Windows 10). This one answers from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. Built by the Windows tests
 * into their own Wine prefix only; Windows itself and newer Wine have the real one.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
