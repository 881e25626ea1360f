import { createMemoryStore } from '../../src/storage/memory-store.js';
import { storeContract } from './contract.js';

storeContract('the memory store', async () => createMemoryStore());
