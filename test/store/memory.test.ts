import { createStore } from '../../src/server/domain/store/index.ts';
import { describeStore } from './store-suite.ts';

describeStore('memory', () => createStore('memory'));
