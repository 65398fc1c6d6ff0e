import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { CLOCK, systemClock } from '../clock';
import { TestAssetSweeper } from './test-asset-sweeper';

@Module({
  imports: [AssetsModule],
  providers: [TestAssetSweeper, { provide: CLOCK, useValue: systemClock }],
})
export class TestAssetsModule {}
